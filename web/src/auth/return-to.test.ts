import { describe, expect, it } from "vitest";
import { safeAppPath } from "./return-to";

describe("the page sign-in returns to", () => {
  it("keeps an app path with its query and hash", () => {
    expect(safeAppPath("/validations")).toBe("/validations");
    expect(safeAppPath("/issues/3f2a/solve?run=9&branch=release-1.x#steps")).toBe(
      "/issues/3f2a/solve?run=9&branch=release-1.x#steps",
    );
    expect(safeAppPath("/profile-settings?tab=usage")).toBe("/profile-settings?tab=usage");
  });

  it.each([
    ["a protocol-relative URL", "//evil.example"],
    ["a protocol-relative URL with a path", "//evil.example/validations"],
    ["an absolute URL", "https://evil.example"],
    ["an absolute URL to this path", "https://evil.example/validations"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a backslash the browser reads as a slash", "/\\evil.example"],
    ["backslashes only", "\\\\evil.example"],
    ["a tab the browser drops", "/\t/evil.example"],
    ["a newline the browser drops", "/\n/evil.example"],
    ["encoded slashes", "/%2F%2Fevil.example"],
    ["an encoded slash after one", "/%2Fevil.example"],
    ["an encoded backslash", "/%5Cevil.example"],
    ["a relative path", "validations"],
    ["an API path", "/api/auth/logout"],
    ["bull-board", "/admin/queues"],
    ["the sign-in page itself", "/auth?next=/validations"],
    ["the sign-in callback", "/auth/callback?token=x"],
    ["a malformed escape", "/%E0%A4%A"],
    ["nothing", ""],
    ["a very long path", `/${"a".repeat(3000)}`],
  ])("refuses %s", (_what, raw) => {
    expect(safeAppPath(raw)).toBeNull();
  });

  it("refuses what is not a string", () => {
    expect(safeAppPath(undefined)).toBeNull();
    expect(safeAppPath(null)).toBeNull();
    expect(safeAppPath({ toString: () => "/validations" })).toBeNull();
  });
});
