import { Hono } from "hono";
import type { AppEnv } from "../deps";

export const notificationsRoutes = new Hono<AppEnv>();
