import { describe, expect, it } from "vitest";
import { deniedChangeReason, deniedPathReason, riskyPathReason } from "./path-policy";
import { splitHidden } from "./hidden-chars";
import { assessChange } from "./assess-change";

describe("path policy", () => {
  it.each([
    ".github/workflows/ci.yml",
    ".github/WORKFLOWS/x.yml",
    ".github/actions/setup/action.yml",
    "../etc/passwd",
    "a/../../b",
    "/etc/passwd",
    ".env",
    "config/.env.production",
    "keys/server.pem",
    ".gitlab-ci.yml",
    ".circleci/config.yml",
    ".git/config",
    "src\\..\\x",
    "deploy/id_rsa",
    "",
  ])("denies %s", (p) => {
    expect(deniedPathReason(p)).toEqual(expect.any(String));
  });
  it.each<[string, string]>([
    ["docs/a\n\n@acme/maintainers\n\nCloses #1\n\nx.md", "Path contains control characters (newline, tab, escape)"],
    ["src/tab\there.ts", "Path contains control characters (newline, tab, escape)"],
    ["src/\u001b[31mred.ts", "Path contains control characters (newline, tab, escape)"],
    ["src/admin\u202Egnp.ts", "Path contains invisible or direction-changing characters"],
    ["src/in\u200Bvisible.ts", "Path contains invisible or direction-changing characters"],
    ...["\u00AD", "\u061C", "\u{E0041}", "\u3164", "\u034F", "\u180E"].map((c): [string, string] => [
      `src/auth${c}.py`,
      "Path contains invisible or direction-changing characters",
    ]),
  ])("denies a name that would break out of its line or read as another: %j", (p, reason) => {
    expect(deniedPathReason(p)).toBe(reason);
  });
  it.each([
    "src/index.ts",
    "docs/café/naïve.md",
    "README.md",
    ".github/ISSUE_TEMPLATE/bug.md",
    "docs/env.md",
    "lib/environment.py",
    "./src/index.ts",
    "docs/owners.md",
  ])("allows %s", (p) => {
    expect(deniedPathReason(p)).toBeNull();
  });

  it.each([
    // The protected directory itself, as a file created, modified or deleted.
    ".github/workflows",
    ".github/actions",
    ".GitHub/Workflows",
    ".github/workflows/",
    // A parent of a protected directory replaced by a file.
    ".github",
    ".GITHUB",
    // Spellings that normalize onto a protected path.
    "./.github/workflows/ci.yml",
    ".github//workflows/ci.yml",
    ".github/./workflows/ci.yml",
    ".github\\workflows\\ci.yml",
    ".github/workflows/../workflows/ci.yml",
    "src/../.github/workflows/ci.yml",
    "src/.GIT/config",
    // Other repository-control files.
    ".github/dependabot.yml",
    ".github/Dependabot.yaml",
    "CODEOWNERS",
    ".github/CODEOWNERS",
    "docs/CODEOWNERS",
    ".gitmodules",
    ".GitModules",
    "Jenkinsfile",
  ])("denies the protected spelling %s", (p) => {
    expect(deniedPathReason(p)).toEqual(expect.any(String));
  });

  it("denies .gitattributes that set filter, diff or merge drivers and flags the rest as risky", () => {
    const change = (content: string) => ({ filename: ".gitattributes", action: "modify", content });
    expect(deniedChangeReason(change("* filter=evil\n"))).toEqual(expect.any(String));
    expect(deniedChangeReason(change("*.png diff=exif\n"))).toEqual(expect.any(String));
    expect(deniedChangeReason(change("*.lock merge=ours\n"))).toEqual(expect.any(String));
    expect(deniedChangeReason(change("*.sh text eol=lf\n"))).toBeNull();
    expect(riskyPathReason(".gitattributes")).toEqual(expect.any(String));
  });

  it("makes a patch that replaces .github/workflows with a file critical and blocked", async () => {
    const check = assessChange({
      files: [
        { filename: ".github/workflows", action: "create", originalContent: "", content: "x\n" },
        { filename: "src/app.ts", action: "modify", originalContent: "a\n", content: "b\n" },
      ],
      existingPaths: null,
    });
    expect(check.validation.riskLevel).toBe("critical");
    expect(check.blocked.map((b) => b.path)).toEqual([".github/workflows"]);
  });

  it("blocks a .gitattributes change that adds a filter driver", async () => {
    const check = assessChange({
      files: [{ filename: ".gitattributes", action: "modify", originalContent: "", content: "*.ts filter=run\n" }],
      existingPaths: null,
    });
    expect(check.validation.riskLevel).toBe("critical");
  });
});

describe("hidden characters in a change's contents", () => {
  it("are cut out as their code points, and the ones a change adds are a warning", () => {
    expect(splitHidden("a\u202Eb\u200B")).toEqual([
      { text: "a" },
      { text: "\u202E", hidden: "U+202E" },
      { text: "b" },
      { text: "\u200B", hidden: "U+200B" },
    ]);
    expect(splitHidden("plain")).toEqual([{ text: "plain" }]);
    const file = (content: string, originalContent = "") =>
      ({ filename: "src/auth.ts", action: "modify", originalContent, content }) as const;
    const trojan = 'if (role != "user\u202E \u2066// admin\u2069 \u2066") {}';
    const added = assessChange({ files: [file(trojan, "x")], existingPaths: null });
    expect(added.validation.warnings).toContain(
      "src/auth.ts adds 4 invisible direction-changing characters: the code may run differently from how it reads (the diff shows them as U+…)",
    );
    // Already in the file (e.g. right-to-left text in a string): not the change's doing.
    const kept = assessChange({ files: [file(`${trojan}\n// more`, trojan)], existingPaths: null });
    expect(kept.validation.warnings.some((w) => w.includes("direction-changing"))).toBe(false);
  });
});
