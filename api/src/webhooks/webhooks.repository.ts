import { githubRepositories } from "@fixloop/db";
import { applied, handler, ignored } from "./webhooks.handler";
import { RepositoryEvent } from "./webhooks.schemas";

/**
 * `repository` `renamed` or `transferred`: the repository's one row (found by its GitHub id) takes
 * the new name, in the delivery's transaction; every user's issues, pull requests and settings
 * name it by id, so they show the new name at once.
 */
export const onRepository = handler(
  RepositoryEvent,
  async (ctx, e) => {
    if (e.action !== "renamed" && e.action !== "transferred") return ignored(`action_${e.action}`);
    const r = e.repository;
    const moved = await githubRepositories.follow(ctx.db, {
      githubId: r.id,
      owner: r.owner.login,
      name: r.name,
      fullName: r.full_name,
    });
    ctx.logger.info({ deliveryId: ctx.deliveryId, repository: r.full_name, moved }, "repository moved on GitHub");
    return moved > 0 ? applied(moved) : ignored("name_unchanged");
  },
  { movesRepository: true },
);
