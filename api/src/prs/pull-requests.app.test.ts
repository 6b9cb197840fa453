import { beforeAll, describe, expect, it } from "vitest";
import { seedSolution } from "@fixloop/testkit";
import { approve, prStack, writes } from "../../test/pull-requests.fixtures";

let t: Awaited<ReturnType<typeof prStack>>;
beforeAll(async () => {
  t = await prStack({
    envOf: (control) => {
      const app = control.defaultApp();
      return { GITHUB_APP_ID: String(app.id), GITHUB_APP_SLUG: app.slug, GITHUB_APP_PRIVATE_KEY: app.pem };
    },
  });
  const id = t.control.install("octocat", "octocat", ["todo-api"]);
  const setup = await t.stack.app.request(`/api/github/app/setup?installation_id=${id}&setup_action=install`, {
    headers: t.octocat.headers,
  });
  expect(setup.headers.get("location")).toMatch(/installed=true$/);
});

describe("a pull request on a repository the App is installed on", () => {
  it("is written by the App's bot with a token minted for the job and narrowed to the repository, and names the approving user", async () => {
    const { solutionId } = await seedSolution(t.stack.db, {
      userId: t.octocat.user._id,
      repoFullName: "octocat/todo-api",
      issueNumber: 3,
      files: [{ filename: "src/paginate.ts", action: "modify", originalContent: t.paginate, content: t.fixedPaginate }],
    });
    t.control.clearRequestLog();
    const res = await approve(t.stack, solutionId, t.octocat.headers, { comments: "LGTM" });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
    const { githubUrl } = (await res.json()) as { githubUrl: string };
    const pull = t.control.listPulls("octocat", "todo-api").find((p) => p.htmlUrl === githubUrl);
    expect(pull?.user).toBe("fixloop-sandbox[bot]");
    expect(pull?.body).toContain("octocat");
    const minted = t.control.requestLog.filter((r) => r.path.endsWith("/access_tokens"));
    expect(minted).toHaveLength(1);
    const written = writes(t.control.requestLog).filter((r) => !r.path.endsWith("/access_tokens"));
    expect(written.length).toBeGreaterThan(0);
    expect(written.every((r) => r.token?.startsWith("ghs_"))).toBe(true);
    // No token reached the logs.
    expect(t.stack.logs.some((l) => /ghs_[A-Za-z0-9_-]{10}/.test(l))).toBe(false);
  });
});
