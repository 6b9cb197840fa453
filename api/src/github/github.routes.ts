import { Hono } from "hono";
import type { AppEnv } from "../deps";

export const githubRoutes = new Hono<AppEnv>();
