/** The one run start (db's `runs.start` + `enqueueRun`) lives in runtime, shared with the label trigger. */
export { startAndEnqueue } from "@fixloop/runtime";
