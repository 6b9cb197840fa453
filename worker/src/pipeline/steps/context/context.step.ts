import { StepOutputs } from "@fixloop/contract";
import { githubForUser } from "@fixloop/runtime";
import type { PipelineStep } from "../step";
import { context } from "./context";
import { fetchRepoSnapshot } from "./repo-tree";

/** Step 2: the repository's file tree at its default branch; needs no earlier output. */
export const contextStep: PipelineStep<"context"> = {
  id: "context",
  input: () => ({}),
  output: StepOutputs.shape.context,
  run: async (_, env, ctx) => {
    const [repoOwner = "", repo = ""] = env.issue.repo_full_name.split("/");
    await env.report?.({ files: [], info: [`Reading the file tree of ${env.issue.repo_full_name}`], warnings: [] });
    const gh = (await githubForUser(ctx, env.run.user_id)).client;
    return context(await fetchRepoSnapshot(gh, ctx.redis, ctx.queues.prefix, repoOwner, repo, env.signal));
  },
};
