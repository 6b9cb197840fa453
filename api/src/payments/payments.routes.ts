import { Hono } from "hono";
import type { AppEnv } from "../deps";

export const paymentsRoutes = new Hono<AppEnv>();
