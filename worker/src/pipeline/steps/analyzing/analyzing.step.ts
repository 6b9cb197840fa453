import { StepOutputs } from "@fixloop/contract";
import type { PipelineStep } from "../step";
import { analyzing } from "./analyzing";

/** Step 1: reads the issue's title, body and labels; needs no earlier output. */
export const analyzingStep: PipelineStep<"analyzing"> = {
  id: "analyzing",
  input: () => ({}),
  output: StepOutputs.shape.analyzing,
  run: (_, env) => analyzing({ title: env.issue.title, body: env.issue.body, labels: env.issue.labels }),
};
