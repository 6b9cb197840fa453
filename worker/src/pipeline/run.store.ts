import { runs, steps } from "@fixloop/db";

export type StepResult = steps.StepResult;

/** The run and step transitions the processor uses, owned by the db package. */
export const claimRun = runs.claim;
export const loadRun = runs.load;
export const endRun = runs.end;
export const loadSteps = steps.load;
export const markStepRunning = steps.markRunning;
export const storeStepProgress = steps.storeProgress;
export const storeStepResult = steps.storeResult;
export const storeStepPrompt = steps.storePrompt;
export const markStepFailed = steps.markFailed;
