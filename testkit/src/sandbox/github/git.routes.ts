import { Hono } from "hono";
import type { SandboxDeps, SandboxEnv } from "./context";
import { gitObjectsRoutes } from "./git-objects.routes";
import { gitRefsRoutes } from "./git-refs.routes";

/** Git data API under /repos/{owner}/{repo}/git. */
export function gitRoutes(deps: SandboxDeps) {
  return new Hono<SandboxEnv>().route("/", gitRefsRoutes(deps)).route("/", gitObjectsRoutes(deps));
}
