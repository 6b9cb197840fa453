import { Hono } from "hono";
import type { AppEnv } from "../deps";

export const issuesRoutes = new Hono<AppEnv>();
