import crypto from "node:crypto";
import { Hono } from "hono";
import type { SandboxDeps, SandboxEnv } from "./context";

const TICKET_TTL_MS = 60 * 1000;

/** Short-lived log tickets, as GitHub's job-log redirect carries a signed URL of its own. */
const tickets = new Map<string, { jobId: number; until: number }>();

/**
 * Where `GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs` redirects: a one-minute URL on the
 * log host (on GitHub, `*.actions.githubusercontent.com`) that needs no Authorization.
 */
export function jobLogUrl(deps: SandboxDeps, jobId: number): string {
  const ticket = crypto.randomBytes(20).toString("hex");
  tickets.set(ticket, { jobId, until: Date.now() + TICKET_TTL_MS });
  for (const [k, t] of tickets) if (t.until < Date.now()) tickets.delete(k);
  return `${deps.urls.api}/_actions-logs/jobs/${jobId}?sig=${ticket}`;
}

/** The log host: serves a job's plain-text log to whoever holds its ticket (not the REST API: not counted). */
export function actionsLogsRoutes(deps: SandboxDeps) {
  return new Hono<SandboxEnv>().get("/jobs/:job_id{[0-9]+}", (c) => {
    const jobId = Number(c.req.param("job_id"));
    const t = tickets.get(c.req.query("sig") ?? "");
    const run = (deps.store.data.checkRuns ?? []).find((x) => x.id === jobId && x.actions);
    if (!t || t.until < Date.now() || t.jobId !== jobId || !run?.actions)
      return c.text("AuthenticationFailed: Server failed to authenticate the request.", 403);
    return c.body(run.actions.log, 200, { "content-type": "text/plain; charset=utf-8" });
  });
}
