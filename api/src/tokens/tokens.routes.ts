import { Hono } from "hono";
import type { AppEnv } from "../deps";

export const tokensRoutes = new Hono<AppEnv>();
