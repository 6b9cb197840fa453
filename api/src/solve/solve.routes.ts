import { Hono } from "hono";
import type { AppEnv } from "../deps";

export const solveRoutes = new Hono<AppEnv>();
