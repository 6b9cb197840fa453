import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { seedRepository } from "@fixloop/testkit";
import { createTestStack } from "../../test/stack";

const stack = await createTestStack();
const { app, db } = stack;

interface Page {
  issues: Array<{ _id: string; title: string; status: string }>;
  nextCursor: string | null;
  counts: { open: number; closed: number; all: number; completed: number } | null;
}

/** `n` issues of `userId`'s repository `repo`, all stored in one statement: they share one creation time. */
async function seedIssues(userId: string, repo: string, n: number, status = "open") {
  const repositoryId = await seedRepository(db, repo);
  await sql`
    insert into issues (user_id, repository_github_id, issue_number, title, html_url, status)
    select ${userId}, ${repositoryId}::bigint, g, ${repo} || ' issue ' || g, 'https://github.com/' || ${repo} || '/issues/' || g, ${status}
    from generate_series(1, ${n}) g`.execute(db);
}

const list = async (headers: Record<string, string>, query: string) => {
  const res = await app.request(`/api/issues${query}`, { headers });
  return { status: res.status, body: (await res.json()) as Page & { error?: { code: string; message: string } } };
};

/** Every page of the list, following nextCursor until it ends. */
async function allPages(headers: Record<string, string>, query: Record<string, string>) {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) });
    const { status, body } = await list(headers, `?${params}`);
    expect(status).toBe(200);
    pages.push(body);
    cursor = body.nextCursor;
  } while (cursor && pages.length < 100);
  return pages;
}

describe("the issue list, a page at a time", () => {
  it("lists each of 250 issues created at the same instant exactly once across its pages", async () => {
    const { headers, user } = await stack.signIn("octocat");
    await seedIssues(user._id, "octocat/many", 150);
    await seedIssues(user._id, "octocat/more", 100, "solved");
    const pages = await allPages(headers, {});
    expect(pages.map((p) => p.issues.length)).toEqual([100, 100, 50]);
    const ids = pages.flatMap((p) => p.issues.map((i) => i._id));
    expect(new Set(ids).size).toBe(250);
    const stored = await db.selectFrom("issues").select("id").where("user_id", "=", user._id).execute();
    expect([...ids].sort()).toEqual(stored.map((r) => r.id).sort());
    expect(pages[0]?.counts).toEqual({ open: 150, closed: 100, all: 250, completed: 100 });
    expect(pages[1]?.counts).toBeNull();
    expect(pages.at(-1)?.nextCursor).toBeNull();
  });

  it("pages by the requested size, and filters by tab on the server", async () => {
    const { headers } = await stack.signIn("octocat");
    const small = await allPages(headers, { limit: "7" });
    expect(small).toHaveLength(Math.ceil(250 / 7));
    expect(new Set(small.flatMap((p) => p.issues.map((i) => i._id))).size).toBe(250);
    const closed = (await allPages(headers, { tab: "closed", limit: "30" })).flatMap((p) => p.issues);
    expect(closed).toHaveLength(100);
    expect(closed.every((i) => i.status === "solved")).toBe(true);
    const open = (await allPages(headers, { tab: "open" })).flatMap((p) => p.issues);
    expect(open).toHaveLength(150);
    expect(open.every((i) => i.title.startsWith("octocat/many"))).toBe(true);
  });

  it("refuses a cursor it did not give out, with a code and a message saying what to do", async () => {
    const { headers } = await stack.signIn("octocat");
    const forged = [
      "not-a-cursor",
      Buffer.from("{}").toString("base64url"),
      Buffer.from(JSON.stringify({ c: "2026-01-01", i: "x" })).toString("base64url"),
      Buffer.from(JSON.stringify({ c: "2026-13-45T99:00:00.000000Z", i: crypto.randomUUID() })).toString("base64url"),
      Buffer.from(JSON.stringify({ c: "2026-01-01T00:00:00.000000Z'--", i: crypto.randomUUID() })).toString(
        "base64url",
      ),
    ];
    for (const cursor of forged) {
      const { status, body } = await list(headers, `?cursor=${encodeURIComponent(cursor)}`);
      expect(status, cursor).toBe(400);
      expect(body.error?.code).toBe("issues.cursor_invalid");
      expect(body.error?.message).toMatch(/nextCursor/);
    }
    for (const limit of ["0", "101", "abc"]) expect((await list(headers, `?limit=${limit}`)).status).toBe(400);
  });

  it("gives nothing of another user's issues for that user's cursor", async () => {
    const octocat = await stack.signIn("octocat");
    const first = await list(octocat.headers, "?limit=5");
    const cursor = first.body.nextCursor;
    expect(cursor).toEqual(expect.any(String));
    const hubot = await stack.signIn("hubot");
    await seedIssues(hubot.user._id, "hubot/own", 3);
    const theirs = await list(hubot.headers, `?cursor=${encodeURIComponent(cursor ?? "")}`);
    expect(theirs.status).toBe(200);
    const octocatIds = new Set(
      (await db.selectFrom("issues").select("id").where("user_id", "=", octocat.user._id).execute()).map((r) => r.id),
    );
    expect(theirs.body.issues.filter((i) => octocatIds.has(i._id))).toEqual([]);
    expect(theirs.body.issues.every((i) => i.title.startsWith("hubot/own"))).toBe(true);
  });
});

describe("searching the issue list", () => {
  it("finds issues by title or owner/repo#number on the server, taking % and _ literally", async () => {
    const { headers, user } = await stack.signIn("hubot");
    await seedIssues(user._id, "hubot/app", 120);
    const appRepo = await seedRepository(db, "hubot/app");
    await sql`update issues set title = '100% CPU on_idle' where user_id = ${user._id} and repository_github_id = ${appRepo}::bigint and issue_number = 3`.execute(
      db,
    );
    const titles = async (q: string) => {
      const { status, body } = await list(headers, `?${new URLSearchParams({ q })}`);
      expect(status).toBe(200);
      return body.issues.map((i) => i.title).sort();
    };
    // Issue 7 is older than the first page's 100 of 120: the search finds it anyway.
    expect(await titles("hubot/app#7")).toEqual(
      ["hubot/app issue 7", "hubot/app issue 70", "hubot/app issue 71"].concat(
        Array.from({ length: 8 }, (_, i) => `hubot/app issue ${72 + i}`),
      ),
    );
    expect(await titles("ISSUE 119")).toEqual(["hubot/app issue 119"]);
    expect(await titles("100%")).toEqual(["100% CPU on_idle"]);
    expect(await titles("%")).toEqual(["100% CPU on_idle"]);
    expect(await titles("n_i")).toEqual(["100% CPU on_idle"]);
    expect(await titles("\\")).toEqual([]);
  });
});
