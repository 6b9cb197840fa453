import { repositories } from "@fixloop/db";
import { applied, handler, ignored } from "./webhooks.handler";
import { RepositoryEvent } from "./webhooks.schemas";

/**
 * `repository` `renamed` or `transferred`: every user's row of the repository (found by its
 * GitHub id) and the issues and pull requests that name it move to the new name at once, in the
 * delivery's transaction, rather than at each user's next sync.
 */
export const onRepository = handler(
  RepositoryEvent,
  async (ctx, e) => {
    if (e.action !== "renamed" && e.action !== "transferred") return ignored(`action_${e.action}`);
    const r = e.repository;
    const moved = await repositories.followRename(ctx.db, {
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
