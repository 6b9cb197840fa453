import { STEPS, type StepId } from "@fixloop/contract";
import type { AnyPipelineStep, PipelineStep } from "./step";
import { analyzingStep } from "./analyzing/analyzing.step";
import { contextStep } from "./context/context.step";
import { dependenciesStep } from "./dependencies/dependencies.step";
import { generatingStep } from "./generating/generating.step";
import { validatingStep } from "./validating/validating.step";

export type { AnyPipelineStep, PipelineStep, StepEnv, StepOutcome } from "./step";

const BY_ID: { [K in StepId]: PipelineStep<K> } = {
  analyzing: analyzingStep,
  context: contextStep,
  dependencies: dependenciesStep,
  generating: generatingStep,
  validating: validatingStep,
};

/** The five steps in the contract's order; each one lives whole in its folder here. */
export const PIPELINE: readonly AnyPipelineStep[] = STEPS.map((id) => BY_ID[id]);
