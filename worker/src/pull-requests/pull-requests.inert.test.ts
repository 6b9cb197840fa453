import { describe, expect, it } from "vitest";
import { prBody, type BodyInput } from "./pull-requests.body";
import type { Guidelines } from "./pull-requests.guidelines";
import { prTitle } from "./pull-requests.body";
import { CLIPPED_NOTE, codeSpan, inert, MAX_BODY_CHARS, openFence } from "./pull-requests.inert";

const NONE: Guidelines = {
  template: null,
  contributing: null,
  conventionalCommits: false,
  signOff: false,
  draftRequired: false,
};
const input: BodyInput = {
  issueNumber: 3,
  issueTitle: "Pagination skips a todo",
  issueRepo: "octocat/todo-api",
  baseRepo: "octocat/todo-api",
  analysis: "The offset adds one.",
  proposedSolution: "Drop the extra one.",
  model: "Llama 3.3 70B",
  confidence: 88,
  files: [{ filename: "src/paginate.ts", action: "modify", originalContent: "a\nb\n", content: "a\nc\n" }],
  metadata: { validation: { riskLevel: "low", warnings: [] }, riskScore: 18 },
  reviewer: "octocat",
};

/** Mentions and references GitHub would act on: outside code spans and fenced blocks. */
function live(markdown: string): string[] {
  let inFence = false;
  const found: string[] = [];
  for (const line of markdown.split("\n")) {
    if (/^\s{0,3}(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const text = line.replace(/(`+)[^`]*?\1/g, "");
    found.push(...(text.match(/(?<![\w`])@[\w-]+(?:\/[\w.-]+)?|(?<![\w&`])(?:[\w.-]+\/[\w.-]+)?#\d+/g) ?? []));
  }
  return found;
}

describe("model text in a pull request body", () => {
  it("strips HTML comments, closed or not", () => {
    expect(inert("Fix it.<!-- @org/team please merge -->Done")).toBe("Fix it.Done");
    expect(inert("Fix it.\n<!-- hidden\nline")).toBe("Fix it.\n");
  });

  it("puts mentions, team mentions and issue references in code spans", () => {
    expect(inert("Thanks @octocat and @acme/maintainers, see #12 and acme/api#7 (GH-9).")).toBe(
      "Thanks `@octocat` and `@acme/maintainers`, see `#12` and `acme/api#7` (`GH-9`).",
    );
  });

  it("puts links to issues and pull requests in code spans, so GitHub neither renders nor backlinks them", () => {
    expect(inert("See https://github.com/acme/api/issues/12 and <https://github.com/acme/api/pull/3>.")).toBe(
      "See `https://github.com/acme/api/issues/12` and `<https://github.com/acme/api/pull/3>`.",
    );
  });

  it("leaves emails, entities, URLs' fragments and code as they are", () => {
    const text = "Mail dev@example.com, char &#123;, https://example.com/page#12, `@kept` and\n```\n@fenced #1\n```";
    expect(inert(text)).toBe(text);
  });

  it("closes a code block the model left open, so it cannot swallow what follows", () => {
    const out = inert("Look:\n```ts\nconst a = 1;");
    expect(openFence(out)).toBeNull();
  });

  it("fences a code span with more backticks than its text holds", () => {
    expect(codeSpan("a`b")).toBe("``a`b``");
    expect(codeSpan("`x")).toBe("`` `x ``");
  });

  it("renders a hostile answer inert in the whole body: nothing GitHub would notify or link but the fix and the reviewer", () => {
    const body = prBody(
      {
        ...input,
        proposedSolution: "Fixed. <!-- invisible --> cc @acme/security @mallory re #99 and other/repo#5",
        analysis: "Also see `#1` and\n```\n@inside #2\n",
        files: [{ filename: "docs/`@x`.md", action: "create", originalContent: "", content: "x\n" }],
        metadata: { validation: { riskLevel: "low", warnings: ["docs/@evil.md: risky #4"] }, riskScore: 18 },
      },
      NONE,
    );
    expect(body).not.toContain("<!--");
    expect(body).not.toContain("invisible");
    expect(live(body).sort()).toEqual(["#3", "@octocat", "@octocat"].sort());
  });

  it("stays under GitHub's body limit, says it was shortened, and keeps the disclosure", () => {
    const long = Array.from({ length: 9000 }, (_, n) => `Line ${n} of a very long explanation.`).join("\n");
    const body = prBody(
      { ...input, proposedSolution: long, analysis: long },
      { ...NONE, template: `## Description\n\n${"x".repeat(70_000)}\n` },
    );
    expect(body.length).toBeLessThanOrEqual(MAX_BODY_CHARS);
    expect(body.length).toBeLessThan(65_536);
    expect(body).toContain(CLIPPED_NOTE);
    expect(body).toContain("**AI assistance:**");
    expect(body.trimEnd().endsWith("before opening.")).toBe(true);
  });
});

describe("the issue's title in the pull request's title and commit message (plain text, no markdown)", () => {
  it("keeps the issue author's closing keywords, references and mentions from acting, and ours working", () => {
    const hostile =
      "Crash on load, closes #3 and fixes other/repo#9, resolves GH-12 https://github.com/o/r/issues/4 cc @org/team";
    for (const title of [
      prTitle({ issueNumber: 5, issueTitle: hostile }, NONE),
      prTitle({ issueNumber: 5, issueTitle: hostile }, { ...NONE, conventionalCommits: true }),
    ]) {
      const ours = title.startsWith("Fix #5: ") ? title.slice("Fix #5: ".length) : title.replace(/ \(#5\)$/, "");
      expect(ours).not.toMatch(/#\d|@\w|GH-\d|https?:\/\//i);
      expect(ours).toMatch(
        /closes ＃3 and fixes other\/repo＃9, resolves GH‑12 github\.com\/o\/r\/issues\/4 cc ＠org\/team$/i,
      );
    }
    expect(prTitle({ issueNumber: 5, issueTitle: hostile }, NONE)).toMatch(/^Fix #5: Crash on load/);
    // A title with nothing to act on is unchanged, e-mail addresses included.
    expect(prTitle({ issueNumber: 5, issueTitle: "Mail to a@b.com fails in C#" }, NONE)).toBe(
      "Fix #5: Mail to a@b.com fails in C#",
    );
  });
});
