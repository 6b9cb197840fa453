import { StepOutputs, runBaseBranchOf } from "@fixloop/contract";
import { githubForUser } from "@fixloop/runtime";
import type { PipelineStep } from "../step";
import { testsConfig } from "../../../tests-run/tests.config";
import { context } from "./context";
import { fetchRepoSnapshot } from "./repo-tree";

/** Step 2: the repository's file tree at the run's base branch (default branch unless chosen); needs no earlier output. */
export const contextStep: PipelineStep<"context"> = {
  id: "context",
  input: () => ({}),
  output: StepOutputs.shape.context,
  run: async (_, env, ctx) => {
    const [repoOwner = "", repo = ""] = env.issue.repo_full_name.split("/");
    const branch = runBaseBranchOf(env.run.input);
    const where = `${env.issue.repo_full_name}${branch ? ` at ${branch}` : ""}`;
    await env.report?.({ files: [], info: [`Reading the file tree of ${where}`], warnings: [] });
    const gh = (await githubForUser(ctx, env.run.user_id)).client;
    const { cache, maxRepoBytes } = testsConfig(ctx.env);
    const local = { cache, maxBytes: maxRepoBytes };
    return context(
      await fetchRepoSnapshot(gh, ctx.redis, ctx.queues.prefix, repoOwner, repo, env.signal, branch, local),
    );
  },
};
