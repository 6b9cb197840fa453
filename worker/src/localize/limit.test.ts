import { describe, expect, it } from "vitest";
import type { RepoFile } from "./files";
import { limitFiles } from "./limit";

const f = (path: string): RepoFile => ({ path, size: 10, read: async () => "" });

describe("limitFiles", () => {
  const files = [
    f("README.md"),
    f("vendor/deep/a/b/c/d/util.go"),
    f("docs/guide.md"),
    f("src/payments/refund.ts"),
    f("src/payments/refund.test.ts"),
    f("src/users/profile.ts"),
    f("src/deep/x/y/z/handler.ts"),
    f("lib/far/away/nested/parser.py"),
  ];

  it("keeps everything within the limit and says nothing", () => {
    const r = limitFiles(files, "Refund fails", "", 100);
    expect(r.files.map((x) => x.path)).toEqual(files.map((x) => x.path));
    expect(r.dropped).toBe(0);
    expect(r.note).toBeUndefined();
  });

  it("keeps named files, then source files sharing the issue's words, then the shallowest, in input order", () => {
    const r = limitFiles(files, "Refund of a payment fails", "see lib/far/away/nested/parser.py", 3);
    expect(r.files.map((x) => x.path)).toEqual([
      "src/payments/refund.ts",
      "src/users/profile.ts",
      "lib/far/away/nested/parser.py",
    ]);
    expect(r.dropped).toBe(5);
    expect(r.note).toContain("8 files, over the limit of 3 (LOCALIZE_MAX_FILES)");
    expect(r.note).toContain("5 files were not searched");
  });
});
