import { describe, expect, it } from "vitest";
import { Queue } from "bullmq";
import { redisConnection } from "@fixloop/runtime";
import { createTestStack } from "../../test/stack";

// No workers: the job stays queued, so the endpoint must stop waiting and hand back the job id.
const stack = await createTestStack({ workers: false, env: { JOB_WAIT_SECONDS: "0" } });

describe("bounded wait for sync jobs", () => {
  it("answers 202 with the job id when the job does not finish in time, and the payload holds no token", async () => {
    const { headers, user } = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const res = await stack.app.request("/api/github/repositories/octocat/anything/issues", { headers });
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as { jobId: string };
    const queue = new Queue("sync", { connection: redisConnection(stack.deps.env.REDIS_URL), prefix: stack.prefix });
    const job = await queue.getJob(jobId);
    await queue.close();
    expect(job?.data).toEqual({ kind: "issues", userId: user._id, owner: "octocat", repo: "anything" });
  });
});
