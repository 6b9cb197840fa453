import { describe, expect, it } from "vitest";
import { pathTerms } from "./tokenize";

describe("pathTerms", () => {
  it("gives the same terms, in the same order, with its segments' terms kept from path to path", () => {
    const paths = [
      "django/db/models/fields/__init__.py",
      "django/db/models/fields/related_lookups.py",
      "sympy/core/tests/test_basic.py",
      "src/HTTPServer-v2.0/http_server.test.ts",
      "docs\\ref\\models\\fields.txt",
      "a/a/a.a",
      "weird..name/.hidden/x-y.z.w",
    ];
    const segments = new Map<string, string[]>();
    for (const p of [...paths, ...paths]) expect(pathTerms(p, segments), p).toEqual(pathTerms(p));
    expect(pathTerms(paths[0] ?? "", segments)).toEqual(["django", "db", "models", "fields", "__init__"]);
    expect(segments.get("models")).toEqual(["models"]);
  });
});
