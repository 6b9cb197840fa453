import { seedSolution } from "@fixloop/testkit";
import { createTestApp, startTestWorkers } from "./testing";

export const ORIGINAL =
  "export const start = (page: number, size: number) => (page - 1) * size + (page > 1 ? 1 : 0);\n";
export const PROPOSED = "export const start = (page: number, size: number) => (page - 1) * size;\n";

/** A test app with a worker parsing manual edits; `env` overrides the app's settings. */
export async function solutionsSetup(opts: { env?: Record<string, string>; worker?: boolean } = {}) {
  const t = await createTestApp(opts.env);
  if (opts.worker !== false) startTestWorkers(t, ["syntax-check"]);
  const me = await t.loginAs();
  const other = await t.loginAs();
  const seeded = await seedSolution(t.db, {
    userId: me.user.id,
    repoFullName: "octocat/todo-api",
    issueNumber: 3,
    files: [{ filename: "src/paginate.ts", action: "modify", originalContent: ORIGINAL, content: PROPOSED }],
  });
  const call = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    t.app.request(`/api/validations${path}`, {
      method: init.method ?? "GET",
      headers: { "content-type": "application/json", ...(init.headers ?? me.headers) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  return { ...t, me, other, ...seeded, call, api: t.client(me.headers).validations };
}
