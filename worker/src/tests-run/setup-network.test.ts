import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FileChange, assessChange, type RepositoryTestSettings, type TestsEvent } from "@fixloop/contract";
import { createTestRedis, testPrefix } from "@fixloop/testkit";
import { compareRuns } from "./compare";
import { NETWORK_NOT_GRANTED, trustedRepository } from "./detect";
import { evidenceLines, solutionTests } from "./evidence";
import { disposePrepared, prepareTests, runPatched, type Prepared, type TestsDeps } from "./run-tests";
import { bwrapRunner } from "./sandbox.bwrap";
import { parseAllowedHosts } from "./sandbox.egress.policy";

// Hostile: a model answer (steerable by issue text) adds a postinstall hook; a repository's
// .fixloop.yml asks for network. Neither may get it.
const redis = createTestRedis();
let root: string;
let registry: http.Server;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-setup-net-"));
  // A package registry stand-in, allowed by ip:port: every request that reaches it is recorded.
  registry = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    res.end("ok");
  });
  await new Promise<void>((r) => registry.listen(0, "127.0.0.1", r));
  port = (registry.address() as { port: number }).port;
});
afterAll(() => {
  registry.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** A postinstall that calls the registry stand-in through the sandbox's proxy and leaves a mark. */
const reach = (mark: string) =>
  `node -e "require('http').get({host:'127.0.0.1',port:3128,path:'http://127.0.0.1:${port}/${mark}'},r=>r.resume())" && echo ${mark} >> installed.log`;
const pkg = (postinstall: string) =>
  JSON.stringify({ name: "victim", version: "1.0.0", scripts: { test: "node --test", postinstall } }, null, 2) + "\n";
const TEST = `const { test } = require("node:test");\ntest("ok", () => {});\n`;

function deps(events: TestsEvent[]): TestsDeps {
  return {
    runner: bwrapRunner({ egress: parseAllowedHosts([`127.0.0.1:${port}`]) }),
    backend: "bwrap",
    cache: { root, maxBytes: 512 * 1024 ** 2 },
    limits: {
      timeoutMs: 60_000,
      memoryBytes: 4 * 1024 ** 3,
      processes: 256,
      fileBytes: 64 * 1024 ** 2,
      outputBytes: 64 * 1024,
    },
    redis,
    prefix: testPrefix(),
    emit: async (e) => void events.push(e),
  };
}

const repo = (files: Record<string, string>, settings: RepositoryTestSettings | null, trusted = true) => ({
  owner: "octo",
  repo: "victim",
  commit: randomBytes(20).toString("hex"),
  settings,
  trusted,
  fetch: async (dir: string) => {
    for (const [name, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), content);
    }
  },
});
const NPM_SETUP: RepositoryTestSettings = {
  command: "cat installed.log; node --test",
  setup: "npm install --no-audit --no-fund",
  timeoutSeconds: null,
  setupNetwork: true,
};
const hostile = (original: string): FileChange => ({
  filename: "package.json",
  action: "modify",
  originalContent: original,
  content: pkg(reach("from-patch")),
});

describe("a patch never runs with network", () => {
  it("a postinstall added by the patch never runs with network: setup ran on the base tree, its result is reused offline", async () => {
    const events: TestsEvent[] = [];
    const d = deps(events);
    const base = pkg(reach("from-base"));
    const ref = repo({ "package.json": base, "test/a.test.js": TEST }, NPM_SETUP);
    const prepared = (await prepareTests(d, ref)) as Prepared;
    try {
      expect(prepared.base.exitCode, prepared.base.logTail).toBe(0);
      expect(hits).toContain("/from-base"); // the base tree's setup had its (filtered) network
      const run = await runPatched(d, prepared, [hostile(base)], "patched");
      expect(run.exitCode, run.logTail).toBe(0);
      expect(run.logTail).toContain("from-base"); // the set-up base was reused
      expect(run.logTail).not.toContain("from-patch");
      expect(hits).not.toContain("/from-patch");
      expect(run.notes?.[0]).toMatch(/The patch changes package\.json; setup was not re-run with network/);
      const repair = await runPatched(d, prepared, [hostile(base)], "repair");
      expect(repair.exitCode).toBe(0);
      expect(hits).not.toContain("/from-patch");

      // Base results cached: the next run sets the base up again (with network), then writes the patch.
      const again = (await prepareTests(d, ref)) as Prepared;
      expect(again.baseCached).toBe(true);
      const before = hits.filter((h) => h === "/from-base").length;
      const cachedRun = await runPatched(d, again, [hostile(base)], "patched");
      await disposePrepared(again);
      expect(cachedRun.exitCode, cachedRun.logTail).toBe(0);
      expect(hits.filter((h) => h === "/from-base").length).toBe(before + 1);
      expect(hits).not.toContain("/from-patch");
    } finally {
      await disposePrepared(prepared);
    }
    expect(fs.readdirSync(path.join(root, "runs"))).toEqual([]);
  });

  it("the patch is flagged high risk with the reason", () => {
    const v = assessChange({ files: [hostile(pkg("true"))], existingPaths: ["package.json"] });
    expect(v.validation.riskLevel).toBe("high");
    expect(v.validation.warnings.join("\n")).toMatch(
      /package\.json: Install-time script \(postinstall\) added or changed/,
    );
    const lock = assessChange({
      files: [{ filename: "poetry.lock", action: "modify", originalContent: "a\n", content: "b\n" }],
      existingPaths: ["poetry.lock"],
    });
    expect(lock.validation.riskLevel).toBe("high");
    // Build files that run or fetch something at install or build time, by path.
    for (const filename of [
      "native/binding.gyp",
      ".cargo/config.toml",
      "crates/x/.cargo/config",
      "gradle/wrapper/gradle-wrapper.properties",
      ".mvn/wrapper/maven-wrapper.properties",
    ]) {
      const v = assessChange({
        files: [{ filename, action: "modify", originalContent: "a\n", content: "b\n" }],
        existingPaths: [filename],
      });
      expect(v.validation.riskLevel, filename).toBe("high");
      expect(v.validation.warnings.join("\n"), filename).toMatch(/build file|Build tool configuration/);
    }
    const plain = assessChange({
      files: [{ filename: "src/config.toml", action: "modify", originalContent: "a\n", content: "b\n" }],
      existingPaths: ["src/config.toml"],
    });
    expect(plain.validation.riskLevel).not.toBe("high");
    const yml = assessChange({
      files: [{ filename: ".fixloop.yml", action: "modify", originalContent: "", content: "network: true\n" }],
      existingPaths: [".fixloop.yml"],
    });
    expect(yml.validation.riskLevel).toBe("critical");
    expect(yml.blocked[0]?.reason).toMatch(/\.fixloop\.yml/);
  });
});

describe("hosts a networked setup was refused", () => {
  it("are listed in the step's warnings, from the base setup through the evidence", async () => {
    const metadata = `node -e "require('http').get({host:'127.0.0.1',port:3128,path:'http://169.254.169.254/latest/meta-data/'},r=>r.resume())"`;
    const p = (await prepareTests(
      deps([]),
      repo(
        {
          ".fixloop.yml": `test: node --test\nsetup: ${JSON.stringify(metadata)}\nnetwork: true\n`,
          "test/a.test.js": TEST,
        },
        null,
      ),
    )) as Prepared;
    await disposePrepared(p);
    expect(p.base.exitCode, p.base.logTail).toBe(0);
    expect(p.base.blockedHosts).toEqual(["169.254.169.254:80 (address not on the allowlist)"]);
    const kept = { label: "first" as const, run: p.base, cmp: compareRuns(p.base, p.base), files: [] };
    const t = solutionTests("bwrap", "node --test", p.base, [kept], kept, 60_000);
    expect(evidenceLines(t).warnings).toContain(
      "Setup's network requests refused by the sandbox or unreachable: 169.254.169.254:80 (address not on the allowlist)",
    );
  });
});

describe(".fixloop.yml network in a repository the user does not own", () => {
  const files = () => ({
    ".fixloop.yml": "test: node --test\nsetup: sh install.sh\nnetwork: true\n",
    "install.sh": `${reach("from-yml")}\n`,
    "test/a.test.js": TEST,
  });

  it("is not granted (setup runs offline) and is said in the step; the user's own repository gets it", async () => {
    const d = deps([]);
    const imported = (await prepareTests(d, repo(files(), null, false))) as Prepared;
    await disposePrepared(imported);
    expect(imported.plan).toMatchObject({ setupNetwork: false, networkNotGranted: true });
    expect(hits).not.toContain("/from-yml");
    // What step 5 shows (steps/validating/repo-tests.ts passes the plan's note on).
    const kept = {
      label: "first" as const,
      run: imported.base,
      cmp: compareRuns(imported.base, imported.base),
      files: [],
    };
    const t = solutionTests("bwrap", "node --test", imported.base, [kept], kept, 60_000, [NETWORK_NOT_GRANTED]);
    expect(evidenceLines(t).warnings).toContainEqual(expect.stringMatching(/setup wants network.*not granted/));

    const own = (await prepareTests(d, repo(files(), null, true))) as Prepared;
    await disposePrepared(own);
    expect(own.plan.setupNetwork).toBe(true);
    expect(own.plan.networkNotGranted).toBeUndefined();
    expect(hits).toContain("/from-yml");
  });

  it("is granted only by the user's row for that very repository saying they can push", async () => {
    const d = deps([]);
    const plan = async (trusted: boolean) => {
      const p = (await prepareTests(d, repo(files(), null, trusted))) as Prepared;
      await disposePrepared(p);
      return p.plan;
    };
    const offline = { setupNetwork: false, networkNotGranted: true };
    // Read only (an organisation's repository, a read-only collaborator), no row, the fork's row.
    expect(await plan(trustedRepository("octo/victim", { fullName: "octo/victim", canPush: false }))).toMatchObject(
      offline,
    );
    expect(await plan(trustedRepository("octo/victim", undefined))).toMatchObject(offline);
    expect(await plan(trustedRepository("octo/victim", { fullName: "me/victim", canPush: true }))).toMatchObject(
      offline,
    );
    expect(
      await plan(trustedRepository("octo/victim", { fullName: "Octo/Victim", canPush: true }, true)),
    ).toMatchObject(offline);
    const own = await plan(trustedRepository("octo/victim", { fullName: "Octo/Victim", canPush: true }));
    expect(own.setupNetwork).toBe(true);
    expect(own.networkNotGranted).toBeUndefined();
  });

  it("the repository's test settings grant it explicitly", async () => {
    const granted = (await prepareTests(
      deps([]),
      repo(files(), { command: null, setup: null, timeoutSeconds: null, setupNetwork: true }, false),
    )) as Prepared;
    await disposePrepared(granted);
    expect(granted.plan.setupNetwork).toBe(true);
  });
});
