import type { Octokit } from "@octokit/rest";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestSandbox } from "../../../test/github-sandbox";
import { openapiContract, repos } from "../../../test/openapi-contract";
import { monalisasOrganization } from "./orgs.contract.fixtures";

const { check, started } = openapiContract("issues");
const { o } = repos;
let t: TestSandbox;
let me: Octokit;
beforeAll(() => void ({ t, me } = started()));

describe("responses match GitHub's OpenAPI description", () => {
  it("issue labels and comments: a test user labels an issue, Fixloop comments on it", async () => {
    const issue = { ...o, issue_number: 3 };
    const labels = await check(
      me,
      "POST /repos/{owner}/{repo}/issues/{issue_number}/labels",
      { ...issue, labels: ["fixloop"] },
      200,
    );
    expect(labels.map((l: { name: string }) => l.name)).toContain("fixloop");
    await check(me, "POST /repos/{owner}/{repo}/issues/{issue_number}/labels", { ...issue, labels: "fixloop" }, 422);
    const created = await check(
      me,
      "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
      { ...issue, body: "On it" },
      201,
    );
    const listed = await check(me, "GET /repos/{owner}/{repo}/issues/{issue_number}/comments", issue, 200);
    expect(listed.map((c: { id: number }) => c.id)).toEqual([created.id]);
  });

  it("an issue deleted (410) or transferred (301 to its new place, followed to it)", async () => {
    const [deleted = 0, moved = 0] = t.sandbox.control.addIssues("octocat", "todo-api", [
      { title: "Spam" },
      { title: "Belongs in the URL shortener" },
    ]);
    t.sandbox.control.deleteIssue("octocat", "todo-api", deleted);
    const gone = await check(
      me,
      "GET /repos/{owner}/{repo}/issues/{issue_number}",
      { ...o, issue_number: deleted },
      410,
    );
    expect(gone.message).toBe("This issue was deleted");
    const original = await check(
      me,
      "GET /repos/{owner}/{repo}/issues/{issue_number}",
      { ...o, issue_number: moved },
      200,
    );
    await check(
      me,
      "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
      { ...o, issue_number: moved, body: "Moving this" },
      201,
    );
    const n = t.sandbox.control.transferIssue("octocat", "todo-api", moved, {
      owner: "octocat",
      repo: "url-shortener",
    });
    const redirect = await check(
      me,
      "GET /repos/{owner}/{repo}/issues/{issue_number}",
      { ...o, issue_number: moved, request: { redirect: "manual" } },
      301,
    );
    expect(redirect.url).toMatch(new RegExp(`/repositories/\\d+/issues/${n}$`));
    const followed = await check(
      me,
      "GET /repos/{owner}/{repo}/issues/{issue_number}",
      { ...o, issue_number: moved },
      200,
    );
    expect([followed.number, followed.repository_url]).toEqual([n, `${t.sandbox.url}/repos/octocat/url-shortener`]);
    // GitHub makes a new issue there: a new id and node id, the comments moved along.
    expect(followed.id).not.toBe(original.id);
    expect(followed.node_id).not.toBe(original.node_id);
    const comments = await check(
      me,
      "GET /repos/{owner}/{repo}/issues/{issue_number}/comments",
      { owner: "octocat", repo: "url-shortener", issue_number: n },
      200,
    );
    expect([followed.comments, comments.map((c: { body: string }) => c.body)]).toEqual([1, ["Moving this"]]);
    const listed = await check(me, "GET /repos/{owner}/{repo}/issues", { ...o, state: "all", per_page: 100 }, 200);
    expect(listed.map((i: { number: number }) => i.number)).not.toContain(deleted);
    expect(listed.map((i: { number: number }) => i.number)).not.toContain(moved);
  });

  it("an organisation's closed issue names the user who closed it, never the organisation", async () => {
    const control = t.sandbox.control;
    await monalisasOrganization(control, "issues-org", { members: ["hubot"], repos: ["tracker"] });
    const r = { owner: "issues-org", repo: "tracker" };
    const [byOwner = 0, byAuthor = 0, later = 0] = control.addIssues("issues-org", "tracker", [
      { title: "Closed by an org owner", user: "hubot", state: "closed" },
      { title: "Closed by its author", user: "hubot", state: "closed", closedBy: "hubot" },
      { title: "Closed later", user: "monalisa" },
    ]);
    control.setIssueState("issues-org", "tracker", later, "closed", "not_planned");
    const closers = [];
    for (const issue_number of [byOwner, byAuthor, later]) {
      const got = await check(me, "GET /repos/{owner}/{repo}/issues/{issue_number}", { ...r, issue_number }, 200);
      closers.push([got.state, got.closed_by?.login]);
    }
    expect(closers).toEqual([
      ["closed", "monalisa"],
      ["closed", "hubot"],
      ["closed", "monalisa"],
    ]);
    // hubot only reads the repository and did not write this issue: GitHub would not let it close it.
    expect(() => control.setIssueState("issues-org", "tracker", later, "closed", "not_planned", "hubot")).toThrow(
      /hubot lacks triage/,
    );
    expect(() =>
      control.addIssues("issues-org", "tracker", [
        { title: "x", user: "hubot", state: "closed", closedBy: "issues-org" },
      ]),
    ).toThrow(/not a user/);
    const unchanged = await check(
      me,
      "GET /repos/{owner}/{repo}/issues/{issue_number}",
      { ...r, issue_number: later },
      200,
    );
    expect([unchanged.state_reason, unchanged.closed_by?.login]).toEqual(["not_planned", "monalisa"]);
  });
});
