import { describe, expect, it } from "vitest";
import { linkedPullsByIssue, type ListedPull } from "./linked-pulls";

const pull = (number: number, body: string, o: Partial<ListedPull> = {}): ListedPull => ({
  number,
  title: `Pull ${number}`,
  body,
  state: "open",
  html_url: `https://github.com/octocat/todo-api/pull/${number}`,
  user: { login: "hubot" },
  pull_request: {},
  ...o,
});

describe("open pull requests that reference a repository's issues", () => {
  it("links #n, owner/repo#n and the issue's address, open pull requests only, by number", () => {
    const linked = linkedPullsByIssue(
      "octocat/todo-api",
      [
        pull(10, "Fixes #3 and closes octocat/todo-api#4"),
        pull(11, "See https://github.com/octocat/todo-api/issues/5", { draft: true, user: { login: "monalisa" } }),
        pull(12, "Fixes #3", { state: "closed" }),
      ],
      [3, 4, 5, 6],
    );
    expect([...linked.keys()].sort()).toEqual([3, 4, 5]);
    expect(linked.get(3)).toEqual([
      {
        number: 10,
        htmlUrl: "https://github.com/octocat/todo-api/pull/10",
        login: "hubot",
        repoFullName: "octocat/todo-api",
        draft: false,
      },
    ]);
    expect(linked.get(5)?.[0]).toMatchObject({ number: 11, login: "monalisa", draft: true });
  });

  it("ignores other repositories' issues, longer numbers, unknown issues and a pull request naming itself", () => {
    const linked = linkedPullsByIssue(
      "octocat/todo-api",
      [
        pull(20, "Fixes hubot/markdown-lint#3, see #30, abc#3 and https://github.com/hubot/other/issues/3"),
        pull(21, "Follow-up to #21; fixes #999"),
        pull(22, "", { title: "Fix #3", body: null }),
      ],
      [3, 21],
    );
    expect([...linked.keys()]).toEqual([3]);
    expect(linked.get(3)?.map((p) => p.number)).toEqual([22]);
  });
});
