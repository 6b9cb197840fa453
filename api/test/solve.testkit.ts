import { afterAll, beforeAll, beforeEach } from "vitest";
import { eventually } from "@fixloop/testkit";
import { repositories } from "@fixloop/db";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack, type TestStackOptions } from "./stack";
import type { TestClient } from "./testing";

type GenerateCall = TestClient["ai"]["generate-solution"]["$post"];

export interface SolveKit {
  models: ModelSandbox;
  stack: TestStack;
  /** octocat's session headers, JSON content type included. */
  headers: Record<string, string>;
  userId: string;
  /** octocat's typed client. */
  api: TestClient;
  /**
   * `POST /api/ai/generate-solution` as octocat (`?wait=true` with `wait`), through the typed
   * client. The body is looser than the route's: tests also send what it must refuse.
   */
  generate(
    body: {
      issueId: string;
      modelId?: string;
      candidates?: unknown;
      mode?: string;
      baseBranch?: string;
      solveAgain?: unknown;
      setupNetwork?: string;
    },
    o?: { wait?: boolean },
  ): ReturnType<GenerateCall>;
  /** `GET /api/runs/:runId/events` as octocat. */
  events(runId: string, extra?: Record<string, string>, signal?: AbortSignal): Promise<Response>;
}

/**
 * The solve tests' setup: a model stand-in (reset before each test), a stack whose workers serve
 * the solve queue, and octocat signed in. Fields are set once the file's `beforeAll` ran.
 */
export function solveKit(
  o: { env?: (models: ModelSandbox) => Record<string, string> } & Omit<TestStackOptions, "env"> = {},
): SolveKit {
  const { env = (m: ModelSandbox) => m.env, ...options } = o;
  const kit = {
    generate: (body, opts = {}) =>
      kit.api.ai["generate-solution"].$post({
        query: opts.wait ? { wait: "true" } : {},
        json: body as Parameters<GenerateCall>[0]["json"],
      }),
    events: (runId, extra = {}, signal) =>
      kit.stack.app.request(`/api/runs/${runId}/events`, { headers: { ...kit.headers, ...extra }, signal }),
  } as SolveKit;
  beforeAll(async () => {
    kit.models = await startModelSandbox();
    kit.stack = await createTestStack({ workers: ["solve"], logLevel: "warn", ...options, env: env(kit.models) });
    const me = await kit.stack.signIn("octocat");
    kit.headers = { ...me.headers, "content-type": "application/json" };
    kit.userId = me.user._id;
    kit.api = kit.stack.client(kit.headers);
  });
  afterAll(async () => {
    await kit.models?.stop();
  });
  beforeEach(() => kit.models.control.reset());
  return kit;
}

/**
 * Lists octocat's repositories (which imports them) and waits until `fullName` is stored: test
 * settings and `.fixloop.yml` choices belong to a stored repository.
 */
export async function importedRepository(kit: SolveKit, fullName: string): Promise<void> {
  await kit.stack.app.request("/api/github/repositories", { headers: kit.headers });
  await eventually(
    async () =>
      (await repositories
        .selectWithGithub(kit.stack.db)
        .where("repositories.user_id", "=", kit.userId)
        .where("g.full_name", "=", fullName)
        .executeTakeFirst()) ?? false,
    { what: `${fullName} to be imported`, timeout: 10_000 },
  );
}

/** The solution a `?wait=true` solve answered with; throws with the answer when the run had not ended with one. */
export async function solutionOf(res: Awaited<ReturnType<GenerateCall>>) {
  if (res.status !== 200) throw new Error(`the solve answered ${res.status}: ${await res.text()}`);
  return (await res.json()).solution;
}
