import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack } from "../../test/stack";
import { backtestToEnd, moveTodoApiToAcme, signedIn, TODO_REMOVE_FIX } from "../../test/backtests.testkit";

let stack: TestStack;
let models: ModelSandbox;

beforeAll(async () => {
  models = await startModelSandbox();
  stack = await createTestStack({ workers: ["sync", "backtest", "solve"], env: models.env });
  await moveTodoApiToAcme(stack);
}, 60_000);
afterAll(async () => {
  await models?.stop();
});

const BASE = "/api/github/repositories/acme/todo-api";

describe("a repository the user can only read", () => {
  it("is backtested, solves included, on the user's own quota, and leaves the repository as it was", async () => {
    const hubot = await signedIn(stack, "hubot");
    expect(hubot.repositories.find((r) => r.fullName === "acme/todo-api")).toMatchObject({ canPush: false });
    models.control.respondWith((p) => p.includes("Add DELETE /todos/:id"), TODO_REMOVE_FIX);
    const pullsBefore = stack.github.control.listPulls("acme", "todo-api").length;
    const got = await backtestToEnd(stack, BASE, hubot.headers, { issues: 2, solve: true });
    expect(got.latest.error).toBeNull();
    expect(got.card).toMatchObject({ status: "done", solve: true, found: 2, checked: 2, solved: 2, solvesVerified: 1 });
    const first = got.card.issues.find((i: any) => i.issueNumber === 1);
    expect(first.solve).toMatchObject({ verified: true, reason: null });
    // Nothing was written to the repository: no pull request, no branch.
    expect(stack.github.control.listPulls("acme", "todo-api")).toHaveLength(pullsBefore);
    expect(stack.github.control.refUpdates.filter((u) => /acme\/todo-api/i.test(JSON.stringify(u)))).toEqual([]);
  }, 120_000);

  it("keeps its test settings per user: the reader's never reach the owner's", async () => {
    const hubot = await signedIn(stack, "hubot");
    const octocat = await signedIn(stack, "octocat");
    expect(octocat.repositories.find((r) => r.fullName === "acme/todo-api")).toMatchObject({ canPush: true });
    const mine = { command: "npm run test:unit", setup: "npm ci", timeoutSeconds: 120, setupNetwork: true };
    const put = await stack.app.request(`${BASE}/test-settings`, {
      method: "PUT",
      headers: hubot.headers,
      body: JSON.stringify(mine),
    });
    expect(put.status).toBe(200);
    const read = async (headers: Record<string, string>) => {
      const res = await stack.app.request(`${BASE}/test-settings`, { headers });
      expect(res.status).toBe(200);
      return ((await res.json()) as { settings: unknown }).settings;
    };
    expect(await read(hubot.headers)).toEqual(mine);
    expect(await read(octocat.headers)).toEqual({
      command: null,
      setup: null,
      timeoutSeconds: null,
      setupNetwork: false,
    });
  });
});
