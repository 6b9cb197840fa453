import { describe, expect, it } from "vitest";
import { createTestStack } from "../../test/stack";
import { pushFiles } from "../../test/tests-run.testkit";

const stack = await createTestStack({ workers: ["fork"] });

interface Preview {
  findings: { code: string; severity: string; message: string }[];
  needsAcknowledgement: boolean;
}
const preview = async (headers: Record<string, string>, repo: string, issueNumber: number) => {
  const res = await stack.app.request("/api/contributions/fetch-issue", {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ owner: "opencommons", repo, issueNumber }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Preview;
};

// Hostile: an imported repository's .fixloop.yml asks for network during setup.
describe("an imported repository's .fixloop.yml asking for network", () => {
  it("is a finding on the contribute preview (never granted by default); the owner sees none; a file that does not ask, none", async () => {
    pushFiles(stack, "opencommons", "disclose-lib", { ".fixloop.yml": "setup: npm install\nnetwork: true\n" }, "CI");
    pushFiles(stack, "opencommons", "draft-first", { ".fixloop.yml": "setup: npm install\nnetwork: false\n" }, "CI");
    const { headers } = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const asked = await preview(headers, "disclose-lib", 1);
    expect(asked.findings).toContainEqual(
      expect.objectContaining({
        code: "setup_network_requested",
        severity: "note",
        message: expect.stringMatching(/asks for network during setup\. It is not granted/),
      }),
    );
    expect((await preview(headers, "draft-first", 1)).findings.map((f) => f.code)).not.toContain(
      "setup_network_requested",
    );
    const owner = await stack.signIn("opencommons", { scopes: ["public_repo"] });
    expect((await preview(owner.headers, "disclose-lib", 1)).findings.map((f) => f.code)).not.toContain(
      "setup_network_requested",
    );
  });
});
