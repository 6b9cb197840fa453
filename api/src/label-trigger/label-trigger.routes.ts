import { Hono } from "hono";
import { labelTriggers } from "@fixloop/db";
import { DEFAULT_SOLVE_LABEL, RepositoryLabelTrigger, type RefusedLabelTrigger } from "@fixloop/contract";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { AppError, errors } from "../http/errors";
import { validate } from "../http/validate";
import { RepoParams } from "../github/github.params";

const PATH = "/github/repositories/:owner/:repo/label-trigger";

const notPushable = () =>
  new AppError(
    403,
    "label_trigger.not_allowed",
    "Only a repository you own or may push to can solve its labelled issues automatically",
  );

/**
 * "Solve issues labelled X" for one of the user's repositories. GET answers `{ trigger, lastRefused }`
 * (off: `enabled: false` with the default label; `lastRefused`: the last label whose sender could not
 * start a solve, and why, or null); PUT takes the whole `RepositoryLabelTrigger`.
 */
export const labelTriggerRoutes = new Hono<AppEnv>()
  .get(PATH, requireUser, validate("param", RepoParams), async (c) => {
    const { owner, repo } = c.req.valid("param");
    const row = await labelTriggers.findSetting(c.var.deps.db, c.var.user.id, `${owner}/${repo}`);
    if (!row) throw errors.notFound("Repository");
    const trigger: RepositoryLabelTrigger = {
      enabled: row.solve_label !== null,
      label: row.solve_label ?? DEFAULT_SOLVE_LABEL,
      allowedSenders: row.solve_label_senders,
    };
    const lastRefused: RefusedLabelTrigger | null =
      row.solve_label_refused_at && row.solve_label_refused_issue !== null && row.solve_label_refused_reason
        ? {
            at: row.solve_label_refused_at.toISOString(),
            issueNumber: row.solve_label_refused_issue,
            sender: row.solve_label_refused_sender,
            reason: row.solve_label_refused_reason,
          }
        : null;
    return c.json({ trigger, lastRefused });
  })
  .put(PATH, requireUser, validate("param", RepoParams), validate("json", RepositoryLabelTrigger), async (c) => {
    const { owner, repo } = c.req.valid("param");
    const trigger = c.req.valid("json");
    const db = c.var.deps.db;
    const row = await labelTriggers.findSetting(db, c.var.user.id, `${owner}/${repo}`);
    if (!row) throw errors.notFound("Repository");
    if (trigger.enabled && !row.can_push) throw notPushable();
    const senders = [...new Map(trigger.allowedSenders.map((s) => [s.toLowerCase(), s])).values()];
    await labelTriggers.saveSetting(db, row.id, trigger.enabled ? trigger.label : null, senders);
    c.var.deps.logger.info({ userId: c.var.user.id, repo: `${owner}/${repo}`, ...trigger }, "label trigger set");
    return c.json({ trigger: { ...trigger, allowedSenders: senders } });
  });
