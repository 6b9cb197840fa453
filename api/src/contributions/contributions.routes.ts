import { Hono } from "hono";
import type { AppEnv } from "../deps";

export const contributionsRoutes = new Hono<AppEnv>();
