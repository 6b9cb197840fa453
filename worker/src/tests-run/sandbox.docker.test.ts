import { describe, expect, it } from "vitest";
import { NETWORK_UNSUPPORTED, planForBackend, type TestPlan } from "./detect";
import { dockerArgv } from "./sandbox.docker";

// No Docker engine is needed: these check what the docker backend would be asked to do.
const limits = { timeoutMs: 1000, memoryBytes: 1 << 30, processes: 64, fileBytes: 1 << 20, outputBytes: 1024 };
const plan: TestPlan = {
  command: "npm test",
  setup: "npm ci",
  setupNetwork: true,
  timeoutMs: null,
  language: "node",
  source: "settings",
};

describe("the docker backend and a networked setup", () => {
  it("never attaches a container to a network, even when the spec asks for one", () => {
    const argv = dockerArgv({ workspace: "/w", command: "npm ci", network: true, limits }, "node:20", "n");
    expect(argv[argv.indexOf("--network") + 1]).toBe("none");
    expect(argv).not.toContain("bridge");
  });

  it("runs a granted networked setup offline and says why in the step", () => {
    expect(planForBackend(plan, "docker")).toMatchObject({ setupNetwork: false, networkUnsupported: true });
    expect(planForBackend(plan, "bwrap")).toBe(plan);
    expect(NETWORK_UNSUPPORTED).toMatch(/docker sandbox backend has no egress proxy/);
  });
});
