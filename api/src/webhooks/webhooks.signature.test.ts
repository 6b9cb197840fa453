import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { validGithubSignature } from "./webhooks.signature";

const body = JSON.stringify({ action: "opened", number: 1 });
const signed = (secret: string, text = body) =>
  `sha256=${crypto.createHmac("sha256", secret).update(text).digest("hex")}`;

describe("GitHub's webhook signature", () => {
  it("matches a delivery signed with any of the webhook's secrets", async () => {
    expect(await validGithubSignature(["env-secret", "app-secret"], body, signed("env-secret"))).toBe(true);
    expect(await validGithubSignature(["env-secret", "app-secret"], body, signed("app-secret"))).toBe(true);
    expect(await validGithubSignature(["", "app-secret"], body, signed("app-secret"))).toBe(true);
  });

  it("refuses another secret, a changed body, another algorithm, a bad header and no secret at all", async () => {
    const secrets = ["env-secret"];
    expect(await validGithubSignature(secrets, body, signed("guess"))).toBe(false);
    expect(await validGithubSignature(secrets, `${body} `, signed("env-secret"))).toBe(false);
    const sha1 = `sha1=${crypto.createHmac("sha1", "env-secret").update(body).digest("hex")}`;
    expect(await validGithubSignature(secrets, body, sha1)).toBe(false);
    for (const header of ["", "sha256=", "sha256=zz", signed("env-secret").slice(0, 40)])
      expect(await validGithubSignature(secrets, body, header)).toBe(false);
    expect(await validGithubSignature([], body, signed(""))).toBe(false);
    expect(await validGithubSignature([""], body, signed(""))).toBe(false);
    expect(await validGithubSignature(secrets, "", signed("env-secret", ""))).toBe(false);
  });
});
