import { jobFailed } from "@fixloop/runtime";
import { QUEUES, SyntaxCheckJob } from "@fixloop/contract";
import { syntaxErrorsOf } from "../pipeline/steps/validating/syntax-check";
import { defineProcessor } from "./processor.define";

/** Parses hand-edited files for the API, which waits for the answer while the user's request is open. */
export const processSyntaxCheck = defineProcessor({
  name: QUEUES.syntaxCheck,
  what: () => "a syntax check",
  async run({ job, ctx }) {
    const { files } = SyntaxCheckJob.parse(job.data);
    try {
      return { syntaxErrors: await syntaxErrorsOf(files) };
    } catch (err) {
      ctx.logger.error({ err: err instanceof Error ? err.message : String(err) }, "syntax check failed");
      // The API is waiting; a retry would answer after it gave up.
      throw jobFailed({ code: "syntax_check.failed", message: "The syntax check could not run", retryable: false });
    }
  },
});
