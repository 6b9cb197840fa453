import { StepOutputs } from "@fixloop/contract";
import type { PipelineStep } from "../step";
import { generateFor } from "../generating/generating.step";
import { validateWithTests } from "./repo-tests";

/** Step 5: static checks, then the repository's tests, with one repair round through step 4's model call. */
export const validatingStep: PipelineStep<"validating"> = {
  id: "validating",
  input: ({ analyzing, context, dependencies, generating }) =>
    analyzing && context && dependencies && generating ? { analyzing, context, dependencies, generating } : null,
  output: StepOutputs.shape.validating,
  run: (input, env, ctx) => validateWithTests(input, env, ctx, (extra) => generateFor(input, env, ctx, extra)),
};
