import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { InstanceResult } from "./eval";
import {
  commitIssueText,
  type Fixture,
  fixedIssue,
  isGoldSource,
  isIssueUrl,
  LANGUAGES,
  loadFixtures,
  materializeFixture,
} from "./fixtures";
import { groupFigures, groupTable } from "./groups";
import { nonPyFigures, nonPyGroups, TEXT_SETS } from "./nonpy-sets";

const scratch = mkdtempSync(join(tmpdir(), "fixtures-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const fixture = (over: Partial<Fixture> = {}): Fixture => ({
  instance_id: "acme__lib-7",
  repo: "acme/lib",
  base_commit: "a".repeat(40),
  fix_commit: "b".repeat(40),
  problem_statement: "Crash on empty input\n",
  text_source: "commit",
  language: "go",
  gold: ["parse.go"],
  ...over,
});

describe("gold extraction", () => {
  it("keeps program source and leaves out tests, docs, examples and declarations", () => {
    const changed = [
      "lib/router/route.js",
      "source/core/options.ts",
      "context.go",
      "crates/ignore/src/walk.rs",
      "test/route.js",
      "context_test.go",
      "crates/ignore/tests/walk.rs",
      "source/core/options.test.ts",
      "index.d.ts",
      "index.test-d.ts",
      "examples/demo.rs",
      "docs/guide.md",
      "History.md",
      "package.json",
    ];
    expect(changed.filter(isGoldSource)).toEqual([
      "lib/router/route.js",
      "source/core/options.ts",
      "context.go",
      "crates/ignore/src/walk.rs",
    ]);
  });

  it("reads the fixed issue's number from the usual commit phrasings", () => {
    expect(fixedIssue("Fix regression\n\nfixes #4913")).toBe(4913);
    expect(fixedIssue("Use object with null prototype closes #4835")).toBe(4835);
    expect(fixedIssue("ignore: fix deadlock\n\nFixes: #3009")).toBe(3009);
    expect(fixedIssue("Add zstd support (#2383)")).toBeUndefined();
  });

  it("turns a commit message into issue text without references, scopes, trailers or file names", () => {
    const text = commitIssueText(
      "fix(context): skip chmod on pre-existing dirs (#4702)",
      "The chmod in lib/context.go fails on /tmp.\n\n* Update http.js\n\nFixes #4622\nSigned-off-by: A <a@b.c>\nCo-authored-by: B <b@c.d>",
    );
    expect(text).toBe("skip chmod on pre-existing dirs\n\nThe chmod in  fails on /tmp.\n\n* Update\n");
    expect(commitIssueText("fix #2786 (#2796)", "")).toBe("");
    expect(commitIssueText("fix #2786 (#2796)", "Router panics on a wildcard.")).toBe("Router panics on a wildcard.\n");
  });
});

describe("fixture loader", () => {
  it("loads the shipped non-Python set: at least 20 issues, at least 4 in each language", async () => {
    const all = await loadFixtures();
    expect(all.length).toBeGreaterThanOrEqual(20);
    for (const language of LANGUAGES)
      expect(all.filter((f) => f.language === language).length).toBeGreaterThanOrEqual(4);
    expect(new Set(all.map((f) => f.instance_id)).size).toBe(all.length);
  });

  it("ships at least 30 issues as filed, each with its own issue's address, across 5 repositories and 3 languages", async () => {
    const issues = (await loadFixtures()).filter((f) => f.text_source === "issue");
    expect(issues.length).toBeGreaterThanOrEqual(30);
    expect(new Set(issues.map((f) => f.repo)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(issues.map((f) => f.language)).size).toBeGreaterThanOrEqual(3);
    for (const f of issues) {
      const n = f.instance_id.slice(f.instance_id.lastIndexOf("-") + 1);
      expect(f.issue_url).toBe(`https://github.com/${f.repo}/issues/${n}`);
      expect(f.gold.length).toBeLessThanOrEqual(3);
    }
  });

  it("takes only a GitHub issue address of the fixture's own repository", () => {
    expect(isIssueUrl("https://github.com/acme/lib/issues/7", "acme/lib")).toBe(true);
    expect(isIssueUrl("https://github.com/other/lib/issues/7", "acme/lib")).toBe(false);
    expect(isIssueUrl("https://github.com/acme/lib/pull/7", "acme/lib")).toBe(false);
    expect(isIssueUrl("https://github.com/acme/lib/issues/7#x", "acme/lib")).toBe(false);
    expect(isIssueUrl(undefined, "acme/lib")).toBe(false);
  });

  it.each([
    ["a fixture without gold", { gold: [] }, /gold/],
    ["a test file as gold", { gold: ["parse_test.go"] }, /gold/],
    ["an unknown language", { language: "python" }, /language/],
    ["a short commit id", { base_commit: "abc123" }, /base_commit/],
    ["an unknown text source", { text_source: "guess" }, /text_source/],
    ["an issue text without its address", { text_source: "issue" }, /issue_url/],
    [
      "an issue text with another repository's address",
      { text_source: "issue", issue_url: "https://github.com/other/lib/issues/7" },
      /issue_url/,
    ],
  ])("refuses %s, naming the field", async (_, over, message) => {
    const file = join(scratch, "bad.json");
    writeFileSync(file, JSON.stringify([fixture(over as Partial<Fixture>)]));
    await expect(loadFixtures(file)).rejects.toThrow(message);
  });
});

describe("materializeFixture", () => {
  const git = (dir: string, ...args: string[]) =>
    execFileSync("git", ["-C", dir, ...args], { encoding: "utf8" }).trim();

  it("writes the tree at base_commit and the issue text from the repository's bare mirror", async () => {
    const work = join(scratch, "work");
    mkdirSync(work);
    git(work, "init", "-q");
    git(work, "config", "user.email", "t@example.com");
    git(work, "config", "user.name", "t");
    writeFileSync(join(work, "parse.go"), "package lib // before\n");
    git(work, "add", ".");
    git(work, "commit", "-qm", "base");
    const base = git(work, "rev-parse", "HEAD");
    writeFileSync(join(work, "parse.go"), "package lib // after\n");
    writeFileSync(join(work, "later.go"), "package lib\n");
    git(work, "add", ".");
    git(work, "commit", "-qm", "fix: crash on empty input\n\nFixes #7");
    const mirrors = join(scratch, "mirrors");
    execFileSync("git", ["clone", "-q", "--bare", work, join(mirrors, "acme+lib", "repo")]);

    const out = join(scratch, "out");
    const f = fixture({ base_commit: base });
    const { dir, issueFile } = await materializeFixture(f, mirrors, out);
    expect(readFileSync(join(dir, "parse.go"), "utf8")).toBe("package lib // before\n");
    expect(existsSync(join(dir, "later.go"))).toBe(false);
    expect(readFileSync(issueFile, "utf8")).toBe(f.problem_statement);
    await expect(materializeFixture(fixture({ repo: "acme/absent" }), mirrors, out)).rejects.toThrow(
      /no mirror of acme\/absent/,
    );
  });
});

describe("per-group figures", () => {
  const row = (repo: string, ours: number | null, bm25: number | null): InstanceResult => ({
    id: `${repo}-${Math.random()}`,
    repo,
    gold: ["x"],
    ranks: { localizer: ours, bm25 },
    seconds: { localizer: 1, bm25: 0.5 },
  });

  it("shows a repository the change hurts beside one it helps", () => {
    const rows = [row("a/helped", 1, 8), row("a/helped", 2, null), row("b/hurt", 9, 1)];
    const groups = groupFigures("set", rows, (r) => r.repo);
    expect(groups.map((g) => [g.group, g.issues, g.ours.recall["@5"], g.bm25.recall["@5"]])).toEqual([
      ["a/helped", 2, 1, 0],
      ["b/hurt", 1, 0, 1],
    ]);
    const table = groupTable("title", groups).split("\n");
    expect(table[0]).toBe("title");
    expect(table[2]).toMatch(/^set\s+a\/helped\s+2\s+0\.50\s+0\.00\s+1\.00\s+0\.00\s+\+1\.00\s+1\.00$/);
    expect(table[3]).toMatch(/b\/hurt\s+1\s+0\.00\s+1\.00\s+0\.00\s+1\.00\s+-1\.00/);
  });
});

describe("non-Python text sources", () => {
  const fx = (id: string, text_source: Fixture["text_source"], language: Fixture["language"]) =>
    fixture({ instance_id: id, text_source, language, repo: `acme/${language}` });
  const fixtures = [
    fx("i1", "issue", "go"),
    fx("i2", "issue", "rust"),
    fx("c1", "commit", "go"),
    fx("c2", "commit", "go"),
  ];
  const result = (id: string, language: string, ours: number | null, bm25: number | null): InstanceResult => ({
    id,
    repo: `acme/${language}`,
    language,
    gold: ["x"],
    ranks: { localizer: ours, bm25 },
    seconds: { localizer: 1, bm25: 0.5 },
  });
  // Issues found at rank 1 by ours and missed by BM25; commit messages the other way round.
  const rows = [
    result("i1", "go", 1, null),
    result("i2", "rust", 1, null),
    result("c1", "go", null, 2),
    result("c2", "go", 12, 1),
  ];

  it("reports the issue-text set and the commit-message set apart, each against BM25 on its own issues", () => {
    const figs = nonPyFigures(fixtures, rows);
    const sections = [...new Set(figs.map((f) => f.section))];
    expect(sections).toEqual([
      `localize ${TEXT_SETS[0].name} (2)`,
      `localize ${TEXT_SETS[0].name}, go (1)`,
      `localize ${TEXT_SETS[0].name}, rust (1)`,
      `localize ${TEXT_SETS[1].name} (2)`,
    ]);
    const row = (section: string, name: string) => figs.find((f) => f.section === section && f.name === name);
    for (const k of [1, 3, 5, 10]) {
      expect(row(sections[0] ?? "", `recall@${k}`)).toMatchObject({
        value: 1,
        baseline: 0,
        baselineName: "plain BM25",
      });
      expect(row(sections[3] ?? "", `recall@${k}`)).toMatchObject({ value: 0, baseline: k === 1 ? 0.5 : 1 });
    }
    expect(figs.some((f) => /\(4\)/.test(f.section))).toBe(false);
  });

  it("keeps the two sets apart in the per-repository table and leaves out rows of unknown fixtures", () => {
    const groups = nonPyGroups(fixtures, [...rows, result("stray", "go", 1, 1)]);
    expect(groups.map((g) => [g.set, g.group, g.issues])).toEqual([
      [TEXT_SETS[0].name, "acme/go", 1],
      [TEXT_SETS[0].name, "acme/rust", 1],
      [TEXT_SETS[0].name, "(go)", 1],
      [TEXT_SETS[0].name, "(rust)", 1],
      [TEXT_SETS[1].name, "acme/go", 2],
      [TEXT_SETS[1].name, "(go)", 2],
    ]);
  });
});
