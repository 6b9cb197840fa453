import { Hono } from "hono";
import type { AppEnv } from "../deps";

/** Public settings the SPA needs before sign-in: which stand-ins are in use (for the Sandbox badge) and their example issues. */
export const configRoutes = new Hono<AppEnv>().get("/config", (c) => {
  const { env } = c.var.deps;
  return c.json({ sandbox: env.SANDBOX_SERVICES, exampleIssueUrls: env.SANDBOX_EXAMPLE_ISSUE_URLS });
});
