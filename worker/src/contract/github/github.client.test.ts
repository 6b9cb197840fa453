import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "@fixloop/infra/testing";
import { createGithubClient } from "./github.client";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => {
  await t?.stop();
});

function capture() {
  const entries: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) entries.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  return { entries, logger: pino({ level: "debug" }, sink) };
}

describe("GitHub client logging", () => {
  it("does not log the expected 404 of a branch lookup at error level", async () => {
    const { entries, logger } = capture();
    const gh = createGithubClient({ baseUrl: t.sandbox.url, token: t.sandbox.control.issueToken("octocat", ["public_repo"]), logger });
    const err = await gh.rest.git.getRef({ owner: "octocat", repo: "todo-api", ref: "heads/fixloop/issue-1-nope" }).catch((e: { status: number }) => e);
    expect(err).toMatchObject({ status: 404 });
    await new Promise((r) => setImmediate(r));
    expect(entries.filter((e) => e.level >= 50)).toEqual([]);
  });
});
