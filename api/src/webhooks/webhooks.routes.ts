import { Hono } from "hono";
import {
  type Conn,
  forgetWebhookEvent,
  markWebhookProcessed,
  pullRequestEvents,
  recordWebhookEvent,
  githubRepositories,
} from "@fixloop/db";
import type { AppEnv } from "../deps";
import { webhookErrors } from "./webhooks.errors";
import type { WebhookOutcome } from "./webhooks.handler";
import { ACCOUNT_EVENTS, webhookHandlers } from "./webhooks.handlers";
import { RepositoryLocation } from "./webhooks.schemas";
import { validGithubSignature } from "./webhooks.signature";
import { githubWebhookSecrets } from "@fixloop/runtime";
import { githubUserContext } from "../auth/auth.cipher";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function repositoryOf(body: Record<string, unknown>): string | null {
  const repo = body.repository;
  return isObject(repo) && typeof repo.full_name === "string" ? repo.full_name : null;
}

/** The delivery's repository with its GitHub id and valid names, or null (then Fixloop does not know it). */
function locationOf(body: Record<string, unknown>): githubRepositories.RepositoryLocation | null {
  const r = RepositoryLocation.safeParse(body.repository);
  if (!r.success) return null;
  return { githubId: r.data.id, owner: r.data.owner.login, name: r.data.name, fullName: r.data.full_name };
}

/**
 * GitHub webhooks. Order: signature (401) → JSON (400) → event type (202 when unsupported) →
 * repository Fixloop knows, by GitHub id (202 ignored otherwise, logged; not asked of the
 * App's installation events, which are about an account) → delivery id
 * seen before (200, duplicate) → the handler, in the same transaction as the stored delivery (or
 * after it, for a handler that works `outside` one).
 *
 * A known repository that arrives under another name than its row holds was renamed or
 * transferred on GitHub since Fixloop last heard of it: before the handler, its row takes the new
 * name, as the `repository` event and the sync do. Done for new deliveries only: a replayed
 * delivery id (an old name, maybe) moves nothing.
 */
export const webhooksRoutes = new Hono<AppEnv>().post("/github/webhook", async (c) => {
  const { db, logger } = c.var.deps;
  const raw = await c.req.text();
  const event = c.req.header("x-github-event") ?? "";
  const deliveryId = c.req.header("x-github-delivery") ?? "";
  const signature = c.req.header("x-hub-signature-256");
  const where = { requestId: c.var.requestId, event, deliveryId };
  const refuse = (e: ReturnType<(typeof webhookErrors)["badSignature"]>) => {
    logger.warn({ ...where, code: e.code }, "github webhook refused");
    return e;
  };
  const secrets = await githubWebhookSecrets(githubUserContext(c.var.deps));
  if (secrets.length === 0) throw refuse(webhookErrors.notConfigured());
  if (!signature) throw refuse(webhookErrors.missingSignature());
  if (!(await validGithubSignature(secrets, raw, signature))) throw refuse(webhookErrors.badSignature());
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw webhookErrors.invalidJson();
  }
  if (!isObject(body)) throw webhookErrors.invalidJson();
  if (!event) throw webhookErrors.missingHeader("X-GitHub-Event");
  if (!deliveryId) throw webhookErrors.missingHeader("X-GitHub-Delivery");
  if (event === "ping") return c.json({ status: "pong" });
  const handler = webhookHandlers[event];
  if (!handler) return c.json({ status: "ignored", reason: "unsupported_event" }, 202);
  const repo = repositoryOf(body);
  const location = locationOf(body);
  const accountEvent = ACCOUNT_EVENTS.has(event);
  if (!accountEvent && (!location || !(await pullRequestEvents.knowsRepository(db, location.githubId)))) {
    logger.warn({ ...where, repository: repo }, "github webhook for a repository Fixloop does not know: ignored");
    return c.json({ status: "ignored", reason: "unknown_repository" }, 202);
  }
  const parsed = handler.schema.safeParse(body);
  if (!parsed.success) throw webhookErrors.invalidPayload(event, parsed.error.issues[0]?.path.join(".") ?? "");
  const action = typeof body.action === "string" ? `.${body.action}` : "";
  const eventId = `github:${deliveryId.slice(0, 200)}`;
  const record = (conn: Conn) =>
    recordWebhookEvent(conn, {
      eventId,
      provider: "github",
      type: `${event}${action}`,
      payload: parsed.data as object,
    });
  const apply = async (conn: Conn) => {
    if (location && !handler.movesRepository) {
      const moved = await githubRepositories.follow(conn, location);
      if (moved > 0) logger.info({ ...where, repository: repo, moved }, "github webhook: repository renamed on GitHub");
    }
    return handler.apply({ db: conn, logger, deliveryId, deps: c.var.deps }, parsed.data);
  };
  const result = handler.outside
    ? await applyOutside(db, eventId, record, apply)
    : await db.transaction().execute(async (trx) => {
        if (!(await record(trx))) return null;
        const outcome = await apply(trx);
        await markWebhookProcessed(trx, eventId);
        return outcome;
      });
  if (!result) return c.json({ status: "duplicate", duplicate: true });
  logger.info({ ...where, repository: repo, ...result }, "github webhook");
  return c.json(result);
});

/** Stores the delivery, applies the handler on the pool, and forgets the delivery if it fails. */
async function applyOutside(
  db: Conn,
  eventId: string,
  record: (conn: Conn) => Promise<boolean>,
  apply: (conn: Conn) => Promise<WebhookOutcome>,
): Promise<WebhookOutcome | null> {
  if (!(await record(db))) return null;
  let outcome: WebhookOutcome;
  try {
    outcome = await apply(db);
  } catch (err) {
    await forgetWebhookEvent(db, eventId);
    throw err;
  }
  await markWebhookProcessed(db, eventId);
  return outcome;
}
