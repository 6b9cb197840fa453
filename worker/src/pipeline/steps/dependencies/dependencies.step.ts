import { StepOutputs } from "@fixloop/contract";
import { githubForUser } from "@fixloop/runtime";
import { findModel, modelsConfigFromEnv, DEFAULT_MODEL_ID } from "../../../models";
import type { PipelineStep } from "../step";
import { readBlob } from "../context/repo-tree";
import { dependencies } from "./dependencies";
import { embeddingRerankFor } from "./embeddings.rerank";
import { rerankWithModel } from "./rerank-model";

/** Step 3: the files the fix most likely touches, from the issue and the file tree. */
export const dependenciesStep: PipelineStep<"dependencies"> = {
  id: "dependencies",
  input: ({ analyzing, context }) => (analyzing && context ? { analyzing, context } : null),
  output: StepOutputs.shape.dependencies,
  run: async ({ analyzing: a, context: c }, env, ctx) => {
    const client = (await githubForUser(ctx, env.run.user_id)).client;
    const models = modelsConfigFromEnv(ctx.env);
    const model = findModel(models, env.run.model_id || DEFAULT_MODEL_ID);
    const read = (sha: string) => readBlob(client, ctx.redis, ctx.queues.prefix, c.owner, c.repo, sha, env.signal);
    const rerank = embeddingRerankFor(ctx, c, a, read, env.signal, env.meter);
    const r = await dependencies({
      context: c,
      title: a.title,
      body: a.body,
      readBlob: read,
      maxFiles: ctx.env.LOCALIZE_MAX_FILES,
      ...(rerank ? { rerank } : {}),
      ...(model && ctx.env.MODEL_RERANK === "on"
        ? {
            modelRerank: (candidates) =>
              rerankWithModel({
                models,
                model,
                signal: env.signal,
                title: a.title,
                body: a.body,
                candidates,
                ...(env.meter ? { meter: env.meter } : {}),
              }),
          }
        : {}),
    });
    return {
      output: r.output,
      detail: r.detail,
      ...(r.cost ? { tokensIn: r.cost.tokensIn, tokensOut: r.cost.tokensOut, costUsd: r.cost.usd } : {}),
    };
  },
};
