import { Hono } from "hono";
import type { AppEnv } from "../deps";

export const prsRoutes = new Hono<AppEnv>();
