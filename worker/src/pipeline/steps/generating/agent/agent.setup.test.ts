import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestPlan } from "../../../../tests-run/detect";
import { NO_TESTS_RUN } from "../../../../tests-run/plan.narrow";
import type { Prepared } from "../../../../tests-run/run-tests";
import type { SandboxLimits } from "../../../../tests-run/sandbox";
import { bwrapRunner } from "../../../../tests-run/sandbox.bwrap";
import { AgentSetUp } from "./agent.setup";
import { runTool, type ToolDeps } from "./agent.tools";
import { WorkingCopy } from "./agent.workspace";

const MiB = 1024 ** 2;
const limits: SandboxLimits = {
  timeoutMs: 20_000,
  memoryBytes: 4 * 1024 ** 3,
  processes: 128,
  fileBytes: 64 * MiB,
  outputBytes: 64 * 1024,
  totalMemoryBytes: 512 * MiB,
  tmpBytes: 16 * MiB,
  diskBytes: 64 * MiB,
};
let root = "";
let base = "";
const runner = bwrapRunner();
const cache = () => ({ root: path.join(root, "workspaces"), maxBytes: 256 * MiB });

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "agent-setup-"));
  base = path.join(root, "base");
  fs.mkdirSync(base);
  fs.writeFileSync(path.join(base, "a.txt"), "from the base tree\n");
});
afterAll(() => {
  execFileSync("rm", ["-rf", "--one-file-system", root]);
});

const plan = (setup: string, setupNetwork: boolean): TestPlan => ({
  command: "true",
  setup,
  setupNetwork,
  timeoutMs: null,
  language: "node",
  source: ".fixloop.yml",
});
const prepared = (p: TestPlan, setUpDir?: string): Prepared => ({
  plan: p,
  baseDir: base,
  base: NO_TESTS_RUN,
  baseCached: false,
  workspaceCached: true,
  setUp: setUpDir ? { dir: setUpDir, dispose: () => Promise.resolve() } : null,
  selector: null,
});

function tools(setUp: AgentSetUp): ToolDeps {
  return {
    copy: new WorkingCopy(base),
    runner,
    cache: cache(),
    limits,
    runTimeoutMs: 20_000,
    signal: new AbortController().signal,
    setUp,
  };
}
const run = (deps: ToolDeps, command: string) => runTool({ id: "c", name: "run", args: { command } }, deps);

describe("where the agent's commands start from", () => {
  it("reuses the set-up tree of a networked setup (the setup is not run again) and stays offline", async () => {
    const setUpDir = path.join(root, "set-up");
    fs.cpSync(base, setUpDir, { recursive: true });
    fs.mkdirSync(path.join(setUpDir, "node_modules/.bin"), { recursive: true });
    fs.writeFileSync(path.join(setUpDir, "node_modules/.bin/tool"), "#!/bin/sh\necho tool-ready\n", { mode: 0o755 });
    const setUp = new AgentSetUp({
      prepared: prepared(plan("exit 9", true), setUpDir),
      baseDir: base,
      runner,
      cache: cache(),
      limits,
    });
    const deps = tools(setUp);
    const first = await run(deps, "node_modules/.bin/tool && cat a.txt");
    expect(first.exitCode, first.content).toBe(0);
    expect(first.content).toContain("ran with network on the base tree");
    expect(first.content).toContain("tool-ready");
    expect(first.content).toContain("from the base tree");
    const second = await run(deps, "node_modules/.bin/tool");
    expect(second.exitCode).toBe(0);
    expect(second.content).not.toContain("ran with network");
    await setUp.dispose();
    expect(fs.existsSync(path.join(setUpDir, "node_modules/.bin/tool"))).toBe(true); // the step's, not the agent's
  });

  it("says a failed offline setup once (its output stripped) and runs commands on the tree without it", async () => {
    const setUp = new AgentSetUp({
      prepared: prepared(plan("printf 'broken \\033[31mred\\n' >&2; mkdir -p made; exit 3", false)),
      baseDir: base,
      runner,
      cache: cache(),
      limits,
    });
    const deps = tools(setUp);
    const first = await run(deps, "cat a.txt; ls");
    expect(first.exitCode, first.content).toBe(0);
    expect(first.content).toContain("failed (exit code 3); commands run on the tree without it");
    expect(first.content).toContain("broken red");
    expect(first.content).not.toContain("\u001b");
    expect(first.content.split("exit code 0\n")[1]).toBe("from the base tree\na.txt\n"); // no half-set-up tree
    const second = await run(deps, "cat a.txt");
    expect(second.content).not.toContain("failed");
    expect(fs.readdirSync(path.join(root, "workspaces", "runs")).length).toBe(0);
    await setUp.dispose();
  });

  it("without a setup, commands run on the base tree and nothing is said", async () => {
    const setUp = new AgentSetUp({ prepared: null, baseDir: base, runner, cache: cache(), limits });
    const r = await run(tools(setUp), "cat a.txt");
    expect(r.exitCode).toBe(0);
    expect(r.content).toBe("exit code 0\nfrom the base tree\n");
  });
});
