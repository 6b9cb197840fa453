import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkers, type RunningWorkers } from "@fixloop/worker";
import { createTestStack, type TestStack } from "../../test/stack";

let stack: TestStack;
let backtestWorker: RunningWorkers | undefined;

beforeAll(async () => {
  // No backtest worker at first: a started backtest stays queued until the test starts one.
  stack = await createTestStack({ workers: ["sync"] });
}, 60_000);
afterAll(async () => {
  await backtestWorker?.close();
});

async function owner(login: string) {
  const me = await stack.signIn(login, { scopes: ["public_repo"] });
  const headers = { ...me.headers, "content-type": "application/json" };
  expect((await stack.app.request("/api/github/repositories", { headers })).status).toBe(200);
  return headers;
}

const PATH = "/api/github/repositories/octocat/url-shortener/backtest";
const start = (headers: Record<string, string>, body: unknown, path = PATH) =>
  stack.app.request(path, { method: "POST", headers, body: JSON.stringify(body) });
const read = async (headers: Record<string, string>, path = PATH) => {
  const res = await stack.app.request(path, { headers });
  expect(res.status).toBe(200);
  return (await res.json()) as { card: any; latest: any };
};

async function until(headers: Record<string, string>, done: (v: { card: any; latest: any }) => boolean, path = PATH) {
  let got = await read(headers, path);
  for (let i = 0; i < 600 && !done(got); i++) {
    await new Promise((r) => setTimeout(r, 100));
    got = await read(headers, path);
  }
  return got;
}

describe("repository backtest", () => {
  it("localizes the seeded past fixes at their base commits and keeps the counts as the trust card; one at a time", async () => {
    const me = await owner("octocat");
    expect(await read(me)).toEqual({ card: null, latest: null });

    const first = await start(me, { issues: 10 });
    expect(first.status).toBe(202);
    const queued = (await first.json()) as { latest: { id: string; status: string; requested: number } };
    expect(queued.latest).toMatchObject({ status: "queued", requested: 10 });
    const again = await start(me, {});
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      error: {
        code: "backtest.running",
        message: "A backtest of this repository is already running; wait for it to finish",
      },
    });

    // Two starts at once: the database lets one through.
    const weather = "/api/github/repositories/octocat/weather-cli/backtest";
    const both = await Promise.all([start(me, { issues: 3 }, weather), start(me, { issues: 3 }, weather)]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);

    backtestWorker = startWorkers(stack.ctx, { queues: ["backtest"], concurrency: 1 });
    let got = await until(me, (v) => v.latest?.status === "done" || v.latest?.status === "failed");
    expect(got.latest.error).toBeNull();
    expect(got.card).toMatchObject({ id: queued.latest.id, status: "done", found: 3, checked: 3 });
    const summary = got.card.issues.map((i: any) => ({
      issue: i.issueNumber,
      pull: i.pullNumber,
      fixFiles: i.fixFiles,
      testFiles: i.testFiles,
      rank: i.rank,
    }));
    // Newest merge first; the unmerged attempt at #5 (#8) is passed over, tests are not fixing files.
    expect(summary).toEqual([
      { issue: 6, pull: 10, fixFiles: [".github/workflows/ci.yml"], testFiles: [], rank: null },
      { issue: 5, pull: 9, fixFiles: ["shortener/handler.go"], testFiles: [], rank: 1 },
      {
        issue: 1,
        pull: 7,
        fixFiles: ["shortener/handler.go", "shortener/store.go"],
        testFiles: ["shortener/store_test.go"],
        rank: 1,
      },
    ]);
    expect(got.card).toMatchObject({ foundAt1: 2, foundAt5: 2 });
    // A repository without merged fixes of its closed issues: measured, nothing to count.
    const none = await until(me, (v) => v.latest?.status === "done", weather);
    expect(none.card).toMatchObject({ requested: 3, found: 0, checked: 0, foundAt5: 0, issues: [] });
    expect(got.card.issues.every((i: any) => /^[0-9a-f]{40}$/.test(i.baseSha) && i.ranked.length > 0)).toBe(true);

    // Finished: the repository may be backtested again. GitHub failing ends that one as failed,
    // with the reason, and the card stays the last finished measurement.
    stack.github.control.failNext({ path: /url-shortener\/pulls$/, status: 500, kind: "primary", times: 20 });
    expect((await start(me, { issues: 1 })).status).toBe(202);
    got = await until(me, (v) => v.latest?.status === "failed");
    expect(got.latest.error).toBe("The backtest failed: GitHub is unavailable, try again shortly");
    expect(got.card.id).toBe(queued.latest.id);
  }, 120_000);

  it("refuses a bad count, and another user's repository is not found", async () => {
    const me = await owner("octocat");
    for (const issues of [0, 21, 2.5, "10"]) expect((await start(me, { issues })).status).toBe(400);
    const hubot = await owner("hubot");
    const res = await start(hubot, { issues: 3 });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("repository.not_found");
    expect((await stack.app.request(PATH, { headers: hubot })).status).toBe(404);
  });
});
