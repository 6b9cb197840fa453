import { afterAll, describe, expect, it } from "vitest";
import { Worker } from "bullmq";
import { redisConnection } from "@fixloop/runtime";
import { createTestStack } from "../../test/stack";
import { runJob } from "./jobs.run";

// No product workers: a bare BullMQ worker answers the syntax-check queue with what each test needs.
const stack = await createTestStack({ workers: false, env: { JOB_WAIT_SECONDS: "5" } });
const connection = redisConnection(stack.deps.env.REDIS_URL);
let answer: unknown = null;
const worker = new Worker("syntax-check", async () => answer, { connection, prefix: stack.prefix });
afterAll(() => worker.close());

const files = [{ filename: "a.js", content: "x", originalContent: "y" }];

describe("a finished job's answer is read with its queue's result schema", () => {
  it("hands back an answer of the contract's shape", async () => {
    answer = { syntaxErrors: { "a.js": ["Unexpected token"] } };
    const out = await runJob(stack.deps, "syntax-check", { files });
    expect(out).toEqual({ done: true, value: { syntaxErrors: { "a.js": ["Unexpected token"] } } });
  });

  it("turns an answer of another shape into a 502 instead of passing it on", async () => {
    answer = { syntaxErrors: ["a.js"] };
    await expect(runJob(stack.deps, "syntax-check", { files })).rejects.toMatchObject({
      status: 502,
      code: "job.failed",
    });
  });
});
