import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./paths";
import { startTestSandbox, type TestSandbox } from "@fixloop/testkit";

const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.stop());

describe("the README's first run", () => {
  it("names the health URL", () => {
    expect(readme).toContain("http://localhost:3000/api/health");
  });

  it("lists exactly the sandbox issues the Contribute page offers as examples", () => {
    const examples = t.sandbox.exampleIssueUrls();
    expect(examples.length).toBeGreaterThan(0);
    const listed = [...readme.matchAll(/`(https:\/\/github\.com\/[^`]+\/issues\/\d+)`/g)].map((m) => m[1]);
    expect(listed).toEqual(examples);
  });
});
