import { Hono } from "hono";
import { backtests } from "@fixloop/db";
import { jobIds, StartBacktest } from "@fixloop/contract";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { AppError, errors } from "../http/errors";
import { validate } from "../http/validate";
import { RepoParams } from "../github/github.params";
import { assertCanSolve } from "./backtests.solve-check";

const PATH = "/github/repositories/:owner/:repo/backtest";

const running = () =>
  new AppError(409, "backtest.running", "A backtest of this repository is already running; wait for it to finish");

/**
 * "How would Fixloop have done here?" for one of the user's synced repositories. GET answers
 * `{ card, latest }`: the latest finished backtest (the trust card) and the latest of any status
 * (the one running, with its progress). POST `{ issues, solve?, modelId? }` starts one (202), 409
 * while one runs; with `solve`, refused first when the quota or the caps leave no room for a solve.
 */
export const backtestsRoutes = new Hono<AppEnv>()
  .get(PATH, requireUser, validate("param", RepoParams), async (c) => {
    const { owner, repo } = c.req.valid("param");
    const found = await backtests.cardOf(c.var.deps.db, c.var.user.id, `${owner}/${repo}`);
    if (!found) throw errors.notFound("Repository");
    return c.json({ card: found.card, latest: found.latest });
  })
  .post(PATH, requireUser, validate("param", RepoParams), validate("json", StartBacktest), async (c) => {
    const { owner, repo } = c.req.valid("param");
    const { issues, solve, modelId } = c.req.valid("json");
    const { db, queues, logger } = c.var.deps;
    const userId = c.var.user.id;
    const before = await backtests.cardOf(db, userId, `${owner}/${repo}`);
    if (!before) throw errors.notFound("Repository");
    const model = solve ? await assertCanSolve(c.var.deps, userId, modelId) : null;
    // One that lost its job no longer blocks a new one (the worker's sweep may not have ended it yet).
    await backtests.expireStale(db, { repositoryId: before.repositoryId });
    const started = await backtests.start(db, {
      repositoryId: before.repositoryId,
      userId,
      requested: issues,
      solve,
      modelId: model,
    });
    if (!started) throw running();
    try {
      await queues.backtest.add(
        "backtest",
        { backtestId: started.id },
        { jobId: jobIds.backtest(started.id), attempts: 1 },
      );
    } catch (err) {
      await backtests.finish(db, started.id, { error: "The backtest could not be queued; try again" });
      throw err;
    }
    logger.info({ userId, repo: `${owner}/${repo}`, issues, solve, backtestId: started.id }, "backtest started");
    const after = await backtests.cardOf(db, userId, `${owner}/${repo}`);
    return c.json({ card: after?.card ?? null, latest: after?.latest ?? null }, 202);
  });
