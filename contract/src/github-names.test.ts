import { describe, expect, it } from "vitest";
import { ForkJob, SyncJob } from "./jobs";
import { GITHUB_LOGIN, GITHUB_REPO_NAME } from "./github-names";

const userId = "00000000-0000-4000-8000-000000000001";

describe("GitHub account logins", () => {
  it("accepts what GitHub gives: plain, older hyphenated, and managed users' logins", () => {
    for (const login of [
      "octocat",
      "a",
      "hubot-2",
      "old--name",
      "trailing-",
      "mona_acme",
      "hubot-2_acme2",
      "x".repeat(39),
    ])
      expect(GITHUB_LOGIN.test(login), login).toBe(true);
  });

  it("refuses what GitHub never gives", () => {
    const hostile = [
      "",
      "-lead",
      "_acme",
      "lisa_",
      "lisa__acme",
      "lisa_ac-me",
      "lisa_acme_corp",
      "lisa.acme",
      "..",
      "lisa/acme",
      "lisa\u0000",
      "lisa\n",
      "lisa\u202e",
      "x".repeat(40),
      "x".repeat(35) + "_acme",
    ];
    for (const login of hostile) expect(GITHUB_LOGIN.test(login), JSON.stringify(login)).toBe(false);
  });

  it("is the rule of the issue sync and fork jobs, so a managed user's repository is synced and forked", () => {
    expect(SyncJob.safeParse({ kind: "issues", userId, owner: "mona_acme", repo: "todo" }).success).toBe(true);
    expect(ForkJob.safeParse({ userId, owner: "mona_acme", repo: "todo", issueNumber: 1 }).success).toBe(true);
    expect(SyncJob.safeParse({ kind: "issues", userId, owner: "_acme", repo: "todo" }).success).toBe(false);
  });
});

describe("GitHub repository names", () => {
  it("accepts letters, digits, dots, hyphens and underscores, and refuses . and ..", () => {
    for (const name of ["todo", ".github", "a.b-c_d", "x".repeat(100)])
      expect(GITHUB_REPO_NAME.test(name), name).toBe(true);
    for (const name of ["", ".", "..", "a/b", "a b", "x".repeat(101), "todo\n"])
      expect(GITHUB_REPO_NAME.test(name), JSON.stringify(name)).toBe(false);
    expect(SyncJob.safeParse({ kind: "issues", userId, owner: "octocat", repo: ".." }).success).toBe(false);
  });
});
