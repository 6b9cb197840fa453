import { expect } from "vitest";
import { issues } from "@fixloop/db";
import type { SignedIn, TestStack } from "./stack";

/**
 * New issues (one per title) on the GitHub stand-in's `repo`, synced into Fixloop by `me` through
 * POST /api/github/repositories/:owner/:repo/sync; each one's number and row id, in title order.
 */
export async function syncNewIssues(
  stack: Pick<TestStack, "app" | "db" | "github">,
  me: SignedIn,
  repo: string,
  titles: string[],
): Promise<{ id: string; number: number }[]> {
  const [owner = "", name = ""] = repo.split("/");
  const numbers = stack.github.control.addIssues(
    owner,
    name,
    titles.map((title) => ({ title })),
  );
  const res = await stack.app.request(`/api/github/repositories/${repo}/sync`, {
    method: "POST",
    headers: me.headers,
  });
  expect(res.status).toBe(200);
  const rows = await issues
    .selectIssues(stack.db)
    .where("issues.user_id", "=", me.user._id)
    .where("issue_repo.full_name", "=", repo)
    .where("issues.issue_number", "in", numbers)
    .execute();
  return numbers.map((number) => {
    const row = rows.find((r) => r.issue_number === number);
    if (!row) throw new Error(`issue #${number} of ${repo} was not synced`);
    return { id: row.id, number };
  });
}
