import { describe, expect, it } from "vitest";
import { seedSolution } from "@fixloop/testkit";
import { createTestApp, errorOf } from "../../test/testing";

const ORIGINAL = "export const a = 1;\n";

describe("NUL characters and lone surrogates in request strings", () => {
  it("answer 400 at the schema for every field and change nothing", async () => {
    const t = await createTestApp();
    const me = await t.loginAs();
    const { solutionId } = await seedSolution(t.db, {
      userId: me.user.id,
      repoFullName: "octocat/todo-api",
      issueNumber: 9,
      files: [{ filename: "src/a.ts", action: "modify", originalContent: ORIGINAL, content: "export const a = 2;\n" }],
    });
    const post = (path: string, body: unknown) =>
      t.app.request(`/api${path}`, {
        method: "POST",
        headers: { ...me.headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const modify = (m: Record<string, string>) => ({
      modifications: [
        { filename: "src/a.ts", originalContent: "export const a = 2;\n", modifiedContent: "x\n", reason: "r", ...m },
      ],
    });
    const cases: [string, unknown][] = [
      ["/tokens", { name: "ci\u0000token" }],
      [`/validations/${solutionId}/refine`, { feedback: "use\u0000a helper" }],
      [`/validations/${solutionId}/refine`, { feedback: "ok", refinementInstructions: "\u0000" }],
      [`/validations/${solutionId}/modify`, modify({ modifiedContent: "x\u0000\n" })],
      [`/validations/${solutionId}/modify`, modify({ reason: "why\u0000" })],
      [`/validations/${solutionId}/validate`, { status: "approved", comments: "lgtm\u0000" }],
      ["/ai/generate-solution", { issueId: "x\u0000" }],
    ];
    for (const [path, body] of cases) {
      const res = await post(path, body);
      expect(res.status, path).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe("request.invalid");
      expect(error.message).toMatch(/NUL/);
    }
    // A lone surrogate is no Unicode text: 400 too, where it used to fail the write with a 500.
    const lone: [string, string, unknown][] = [
      ["POST", `/validations/${solutionId}/refine`, { feedback: "\ud800x" }],
      ["POST", `/validations/${solutionId}/refine`, { feedback: "ok", refinementInstructions: "x\udc00" }],
      ["POST", `/validations/${solutionId}/modify`, modify({ modifiedContent: "\ud800x\n" })],
      ["POST", `/validations/${solutionId}/modify`, modify({ reason: "\ud800x" })],
      [
        "PUT",
        "/github/repositories/octocat/todo-api/test-settings",
        { command: "npm test \ud800x", setup: null, timeoutSeconds: null, setupNetwork: false },
      ],
      [
        "PUT",
        "/github/repositories/octocat/todo-api/test-settings",
        { command: "npm test", setup: "npm ci \u0000", timeoutSeconds: null, setupNetwork: false },
      ],
    ];
    for (const [method, path, body] of lone) {
      const res = await t.app.request(`/api${path}`, {
        method,
        headers: { ...me.headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status, path).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe("request.invalid");
      expect(error.message).toMatch(/lone surrogates/);
    }
    // A body that is no JSON, or whose bytes are not UTF-8, is a 400 too.
    const raw: BodyInit[] = [
      '{"feedback": "\\ud800',
      '{"feedback": "\\uZZZZ"}',
      new Blob([new Uint8Array([0x7b, 0x22, 0x66, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])]),
    ];
    for (const body of raw) {
      const res = await t.app.request(`/api/validations/${solutionId}/refine`, {
        method: "POST",
        headers: { ...me.headers, "content-type": "application/json" },
        body,
      });
      expect(res.status, String(body)).toBe(400);
    }
    expect(await t.db.selectFrom("api_tokens").selectAll().execute()).toEqual([]);
    expect(await t.db.selectFrom("solve_runs").selectAll().execute()).toEqual([]);
    const sol = await t.db
      .selectFrom("solutions")
      .select(["revision", "status"])
      .where("id", "=", solutionId)
      .executeTakeFirstOrThrow();
    expect(sol).toEqual({ revision: 1, status: "pending" });
  });
});
