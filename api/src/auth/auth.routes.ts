import { Hono } from "hono";
import type { AppEnv } from "../deps";

export const authRoutes = new Hono<AppEnv>();
