import { beforeAll, describe, expect, it } from "vitest";
import type { TestSandbox } from "../../../test/github-sandbox";
import { openapiContract } from "../../../test/openapi-contract";

const { check, started } = openapiContract("orgs");
let t: TestSandbox;
beforeAll(() => void ({ t } = started()));

describe("responses match GitHub's OpenAPI description", () => {
  it("organisation repositories reached through a team or the base permission", async () => {
    const control = t.sandbox.control;
    control.createOrganization("contract-org", { defaultPermission: "read" });
    await control.createRepository("contract-org", "handbook", { private: true });
    await control.createRepository("contract-org", "service", { private: true });
    control.addOrgMember("contract-org", "monalisa");
    control.createTeam("contract-org", "devs", ["monalisa"]);
    control.addTeamRepository("contract-org", "devs", "service", "maintain");
    const member = t.octokit("monalisa", ["repo"]);
    const listed = await check(member, "GET /user/repos", { per_page: 100 }, 200);
    expect(
      listed.map((r: { full_name: string; owner: { type: string }; permissions: object }) => [
        r.full_name,
        r.owner.type,
        r.permissions,
      ]),
    ).toEqual([
      [
        "contract-org/handbook",
        "Organization",
        { admin: false, maintain: false, push: false, triage: false, pull: true },
      ],
      ["contract-org/service", "Organization", { admin: false, maintain: true, push: true, triage: true, pull: true }],
    ]);
    const full = await check(member, "GET /repos/{owner}/{repo}", { owner: "contract-org", repo: "service" }, 200);
    expect(full.owner).toMatchObject({ login: "contract-org", type: "Organization" });
  });
});
