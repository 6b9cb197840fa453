import { afterAll, beforeAll, expect } from "vitest";
import { SANDBOX_EMBEDDING_MODEL, startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack } from "./stack";
import { makeEnterprise, workerProcesses } from "./faults.testkit";

/** A self-hosted model and the embeddings priced at $1000 per million tokens: every request counts. */
export const LEDGER_MODEL = "probe-coder";
const PRICE = 1000;

const ledgerEnv = (m: ModelSandbox): Record<string, string> => ({
  ...m.env,
  ...m.embeddingsEnv,
  OPENAI_COMPATIBLE_BASE_URL: m.compatibleBaseURL,
  OPENAI_COMPATIBLE_MODELS: LEDGER_MODEL,
  OPENAI_COMPATIBLE_PRICES: `${LEDGER_MODEL}=${PRICE}/${PRICE},${SANDBOX_EMBEDDING_MODEL}=${PRICE}/0`,
  MODEL_RERANK: "on",
  SANDBOX_BACKEND: "off",
  LOCALIZE_THREADS: "0",
});

/**
 * The ledger tests' setup: a model stand-in under the hostile price list, a stack without
 * in-process workers, and real worker processes (so one can be SIGKILLed like a crashed machine).
 * Fields are set once the file's `beforeAll` ran.
 */
export function ledgerKit() {
  const workers = workerProcesses();
  let resetAt = new Date();
  const kit = {
    models: undefined as unknown as ModelSandbox,
    stack: undefined as unknown as TestStack,
    workers,
    startWorker: (extra: Record<string, string> = {}) =>
      workers.start({
        DATABASE_URL: kit.stack.deps.env.DATABASE_URL,
        REDIS_URL: kit.stack.deps.env.REDIS_URL,
        QUEUE_PREFIX: kit.stack.prefix,
        GITHUB_API_URL: kit.stack.github.url,
        WORKER_QUEUES: "solve",
        WORKER_CONCURRENCY: "20",
        ...ledgerEnv(kit.models),
        ...extra,
      }),
    async signedIn(login: string) {
      const me = await kit.stack.signIn(login);
      await makeEnterprise(kit.stack.db, me.user._id);
      return { headers: { ...me.headers, "content-type": "application/json" }, userId: me.user._id };
    },
    async solve(headers: Record<string, string>, issueId: string, extra: { candidates?: number } = {}) {
      const res = await kit.stack.app.request("/api/ai/generate-solution", {
        method: "POST",
        headers,
        body: JSON.stringify({ issueId, modelId: LEDGER_MODEL, ...extra }),
      });
      expect(res.status).toBe(202);
      return ((await res.json()) as { runId: string }).runId;
    },
    async setCaps(headers: Record<string, string>, caps: { runCapUsd: number | null; monthlyCapUsd: number | null }) {
      const res = await kit.stack.app.request("/api/costs/caps", {
        method: "PUT",
        headers,
        body: JSON.stringify(caps),
      });
      expect(res.status).toBe(200);
    },
    ledger: (userId: string) =>
      kit.stack.db
        .selectFrom("model_requests")
        .selectAll()
        .where("user_id", "=", userId)
        .orderBy("created_at")
        .execute(),
    ended: async (runIds: string[]) =>
      (await kit.stack.db.selectFrom("solve_runs").select("status").where("id", "in", runIds).execute()).every(
        (r) => r.status !== "queued" && r.status !== "running",
      ),
    /** Requests the stand-in received since the last reset (chat and embeddings). */
    received: () => kit.models.control.requests.length + kit.models.control.embeddingRequests.length,
    /** Requests the ledger holds since the last reset, all but those never sent (released). */
    recorded: async (userId: string) =>
      (await kit.ledger(userId)).filter((r) => r.state !== "released" && r.created_at >= resetAt).length,
    /** Received minus recorded: 0 when every request the stand-in received is in the ledger. */
    unrecorded: async (userId: string) => kit.received() - (await kit.recorded(userId)),
    reset() {
      kit.models.control.reset();
      resetAt = new Date();
    },
  };
  beforeAll(async () => {
    kit.models = await startModelSandbox();
    kit.stack = await createTestStack({ env: ledgerEnv(kit.models), workers: false, logLevel: "warn" });
  });
  afterAll(async () => {
    await kit.models?.stop();
  });
  return kit;
}

export function countBy(xs: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}
