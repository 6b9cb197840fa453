import { describe, expect, it } from "vitest";
import { deniedPathReason } from "./path-policy";

describe("path policy", () => {
  it.each([
    ".github/workflows/ci.yml", ".github/WORKFLOWS/x.yml", ".github/actions/setup/action.yml", "../etc/passwd",
    "a/../../b", "/etc/passwd", ".env", "config/.env.production", "keys/server.pem", ".gitlab-ci.yml",
    ".circleci/config.yml", ".git/config", "src\\..\\x", "deploy/id_rsa", "",
  ])("denies %s", (p) => {
    expect(deniedPathReason(p)).toEqual(expect.any(String));
  });
  it.each(["src/index.ts", "README.md", ".github/ISSUE_TEMPLATE/bug.md", "docs/env.md", "lib/environment.py"])("allows %s", (p) => {
    expect(deniedPathReason(p)).toBeNull();
  });
});
