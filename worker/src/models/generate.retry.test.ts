import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { eventually } from "@fixloop/testkit";
import {
  findModel,
  generateSolution,
  modelsConfigFromEnv,
  ModelError,
  type GenerateRequest,
  type ModelsConfig,
} from "./index";

let sandbox: ModelSandbox;
let cfg: ModelsConfig;

beforeAll(async () => {
  sandbox = await startModelSandbox();
  cfg = { ...modelsConfigFromEnv(sandbox.env), retry: { baseDelayMs: 20, maxDelayMs: 100 } };
});
afterAll(() => sandbox.stop());
beforeEach(() => sandbox.control.reset());

function request(id: string, extra: Partial<GenerateRequest> = {}): GenerateRequest {
  const model = findModel(cfg, id);
  if (!model) throw new Error(`model ${id} not configured`);
  return {
    model,
    system: "You fix issues.",
    prompt: "### File: src/app.ts\n1 | export const answer = 42;\n",
    signal: new AbortController().signal,
    ...extra,
  };
}

async function failure(p: Promise<unknown>): Promise<ModelError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof ModelError)) throw new Error(`expected a ModelError, got ${String(err)}`);
  return err;
}

const PROVIDERS = ["llama-3.3-70b-versatile", "gpt-4.1-mini", "claude-haiku-4-5"];

describe.each(PROVIDERS)("%s", (id) => {
  test("a 429 with retry-after is waited out, then the answer arrives on attempt 2", async () => {
    sandbox.control.failNext({ status: 429, retryAfter: 1 });
    const retries: { waitMs: number; reason: string }[] = [];
    const started = Date.now();
    const result = await generateSolution(cfg, request(id, { onRetry: (r) => retries.push(r) }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(result.attempts).toBe(2);
    expect(retries).toEqual([{ attempt: 1, reason: expect.stringContaining("429"), waitMs: 1000 }]);
    expect(sandbox.control.requests).toHaveLength(2);
  });

  test("three 500s in a row are retried with backoff and the fourth attempt succeeds", async () => {
    sandbox.control.failNext({ status: 500, times: 3 });
    const result = await generateSolution(cfg, request(id));
    expect(result.attempts).toBe(4);
    expect(result.solution.files[0]?.filename).toBe("src/app.ts");
  });

  test("malformed output once is repaired by sending the validation error back", async () => {
    sandbox.control.malformedNext(1);
    const result = await generateSolution(cfg, request(id));
    expect(result.repaired).toBe(true);
    expect(result.attempts).toBe(2);
    expect(result.solution.files).toHaveLength(1);
    const repair = sandbox.control.requests[1]?.prompt ?? "";
    expect(repair).toContain("did not match the submit_solution schema");
  });

  test("malformed output twice fails with model.malformed_output", async () => {
    sandbox.control.malformedNext(2);
    const err = await failure(generateSolution(cfg, request(id)));
    expect(err.code).toBe("model.malformed_output");
    expect(err.retryable).toBe(false);
    if (!id.startsWith("llama")) expect(err.tokensIn).toBeGreaterThan(0);
    expect(sandbox.control.requests).toHaveLength(2);
  });

  test("aborting a hung request cancels the HTTP call", async () => {
    sandbox.control.hangNext();
    const controller = new AbortController();
    const pending = failure(generateSolution(cfg, request(id, { signal: controller.signal })));
    await eventually(() => expect(sandbox.control.requests).toHaveLength(1), { timeout: 1_000 });
    controller.abort();
    const err = await pending;
    expect(err.code).toBe("model.cancelled");
    await eventually(() => sandbox.control.abortedRequests === 1, { timeout: 1_000, what: "the aborted request" });
  });
});

test("a scripted answer that is not JSON counts as malformed and is repaired", async () => {
  sandbox.control.respondWith((p) => !p.includes("submit_solution schema"), { raw: '{"analysis": "cut sho' });
  const result = await generateSolution(cfg, request("gpt-4.1"));
  expect(result.repaired).toBe(true);
  expect(sandbox.control.requests[1]?.prompt).toContain("not valid JSON");
});

test("a provider that is down fails with model.unavailable after the allowed attempts", async () => {
  const gone = await startModelSandbox();
  await gone.stop();
  const down = { ...modelsConfigFromEnv(gone.env), retry: { maxAttempts: 3, baseDelayMs: 10 } };
  const attempts: number[] = [];
  const err = await failure(
    generateSolution(down, { ...request("llama-3.3-70b-versatile"), onRetry: (r) => attempts.push(r.attempt) }),
  );
  expect(err.code).toBe("model.unavailable");
  expect(err.retryable).toBe(true);
  expect(attempts).toEqual([1, 2]);
});

test("a retry-after beyond the total wait budget fails at once as rate limited", async () => {
  sandbox.control.failNext({ status: 429, retryAfter: 600 });
  const started = Date.now();
  const err = await failure(generateSolution(cfg, request("gpt-4.1")));
  expect(err.code).toBe("model.rate_limited");
  expect(err.retryable).toBe(true);
  expect(Date.now() - started).toBeLessThan(5_000);
});

test("persistent 503s give up after maxAttempts", async () => {
  sandbox.control.failNext({ status: 503, times: 10 });
  const err = await failure(
    generateSolution({ ...cfg, retry: { maxAttempts: 3, baseDelayMs: 10 } }, request("claude-sonnet-4-5")),
  );
  expect(err.code).toBe("model.unavailable");
  expect(sandbox.control.requests).toHaveLength(3);
});

test("cancelling while waiting out a retry-after stops at once", async () => {
  sandbox.control.failNext({ status: 429, retryAfter: 30 });
  const controller = new AbortController();
  const started = Date.now();
  const pending = failure(
    generateSolution(cfg, request("gpt-4.1", { signal: controller.signal, onRetry: () => controller.abort() })),
  );
  const err = await pending;
  expect(err.code).toBe("model.cancelled");
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(sandbox.control.requests).toHaveLength(1);
});

test("a solution written as JSON text instead of a tool call is accepted", async () => {
  const solution = {
    analysis: "a",
    proposedSolution: "b",
    confidence: 70,
    files: [{ filename: "src/app.ts", action: "modify", edits: [{ search: "42", replace: "43" }] }],
  };
  sandbox.control.respondWith(() => true, { raw: `Here is the fix:\n\`\`\`json\n${JSON.stringify(solution)}\n\`\`\`` });
  const result = await generateSolution(cfg, request("claude-sonnet-4-5"));
  expect(result.solution).toEqual(solution);
  expect(result.repaired).toBe(false);
});
