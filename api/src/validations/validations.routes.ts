import { Hono } from "hono";
import type { AppEnv } from "../deps";

export const validationsRoutes = new Hono<AppEnv>();
