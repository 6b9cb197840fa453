import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@fixloop/testkit";
import { SANDBOX_RUN_UID_BASE, sandboxRunUid, type SandboxLimits, type SandboxRunSpec } from "./sandbox";
import { bwrapRunner } from "./sandbox.bwrap";

const limits: SandboxLimits = {
  timeoutMs: 20_000,
  memoryBytes: 4 * 1024 ** 3,
  processes: 128,
  fileBytes: 64 * 1024 ** 2,
  outputBytes: 64 * 1024,
};
const runner = bwrapRunner();
let root: string;
let workspace: string;
let secretFile: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-bwrap-"));
  secretFile = path.join(root, "data", "secret.txt");
  fs.mkdirSync(path.dirname(secretFile), { recursive: true });
  fs.writeFileSync(secretFile, "TOP-SECRET-DATA-DIR");
  workspace = path.join(root, "data", "workspaces", "runs", "w1");
  fs.mkdirSync(workspace, { recursive: true });
  fs.chownSync(workspace, 65534, 65534);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const run = (command: string, extra: Partial<SandboxRunSpec> = {}) =>
  runner.run({ workspace, command, network: false, limits, ...extra });

describe("the bubblewrap sandbox", () => {
  it("runs node and python3 inside, as nobody, in the workspace, with only PATH/HOME/LANG/CI in the environment", async () => {
    process.env.FIXLOOP_TEST_SECRET = "worker-env-secret";
    const r = await run(
      "node -e 'console.log(process.version)' && python3 -c 'print(\"py-ok\")' && id -u && pwd && env | sort",
    );
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain(process.version);
    expect(r.output).toContain("py-ok");
    expect(r.output).toMatch(/^65534$/m);
    expect(r.output).toContain("/workspace");
    const env = r.output
      .split("\n")
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => l.split("=")[0]);
    expect(env.filter((k) => !["PWD", "SHLVL", "_"].includes(k ?? "")).sort()).toEqual(["CI", "HOME", "LANG", "PATH"]);
    expect(r.output).not.toContain("worker-env-secret");
  });

  it("cannot read the data dir, the worker's environment or host secrets", async () => {
    const r = await run(
      `cat ${secretFile}; cat /proc/1/environ | tr '\\0' '\\n'; cat /proc/${process.pid}/environ; cat /etc/shadow; ls /root; ls ${path.dirname(secretFile)}; echo done`,
    );
    expect(r.output).toContain("done");
    expect(r.output).not.toContain("TOP-SECRET-DATA-DIR");
    expect(r.output).not.toContain("worker-env-secret");
    expect(r.output).not.toMatch(/root:[^:]*:\d+/);
  });

  it("cannot reach the network, not even a port listening on the host's loopback", async () => {
    const server = net.createServer((s) => s.end("HELLO-FROM-HOST\n"));
    await new Promise<void>((res) => server.listen(0, "127.0.0.1", res));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const script = `const s=require("net").connect(${port},"127.0.0.1");s.on("data",d=>{console.log("GOT",String(d));process.exit(0)});s.on("error",e=>{console.log("BLOCKED",e.code);process.exit(3)})`;
      const r = await run(`node -e '${script}'`);
      expect(r.output).toContain("BLOCKED");
      expect(r.output).not.toContain("HELLO-FROM-HOST");
      expect(r.exitCode).toBe(3);
    } finally {
      server.close();
    }
  });

  it("cannot write outside the workspace; inside it can", async () => {
    const r = await run(
      `echo x > ${root}/escaped.txt; echo x > /usr/escaped.txt; echo x > /etc/escaped; echo x > ../escaped.txt; echo ok > inside.txt; echo done`,
    );
    expect(r.output).toContain("done");
    expect(fs.existsSync(path.join(root, "escaped.txt"))).toBe(false);
    expect(fs.existsSync("/usr/escaped.txt")).toBe(false);
    expect(fs.existsSync("/etc/escaped")).toBe(false);
    expect(fs.existsSync(path.join(workspace, "..", "escaped.txt"))).toBe(false);
    expect(fs.readFileSync(path.join(workspace, "inside.txt"), "utf8")).toBe("ok\n");
  });

  it("survives a fork bomb: the process limit stops it and the run ends", async () => {
    const started = Date.now();
    const r = await run("bomb() { bomb | bomb & }; bomb; sleep 2; echo after-bomb", {
      limits: { ...limits, timeoutMs: 15_000 },
    });
    expect(Date.now() - started).toBeLessThan(16_000);
    expect(r.output).toMatch(/fork|Resource temporarily unavailable|retry/i);
    // the worker can still start processes
    expect((await run("echo still-alive")).output).toContain("still-alive");
  });

  it("gives each run its own process budget, so concurrent runs near the limit do not starve each other", async () => {
    const busy = "for i in $(seq 30); do sleep 1 & done; wait; echo all-started; id -u";
    const small = { ...limits, processes: 40 };
    // 60 processes of one uid against a budget of 40: each run counts in its own user namespace and cgroup
    const shared = await Promise.all([run(busy, { limits: small }), run(busy, { limits: small })]);
    const own = await Promise.all([
      run(busy, { limits: small, uid: sandboxRunUid() }),
      run(busy, { limits: small, uid: sandboxRunUid() }),
    ]);
    for (const r of [...shared, ...own]) {
      expect(r.exitCode).toBe(0);
      expect(r.output).not.toMatch(/fork|Resource temporarily unavailable|retry/i);
    }
    for (const r of own)
      expect(Number(r.output.trim().split("\n").at(-1))).toBeGreaterThanOrEqual(SANDBOX_RUN_UID_BASE);
  });

  it("kills everything at the timeout, double-forked children included", async () => {
    const marker = `fixloop-orphan-${process.pid}-${Date.now()}`;
    const started = Date.now();
    const r = await run(`(setsid sh -c 'exec -a ${marker} sleep 600' &) ; sleep 600`, {
      limits: { ...limits, timeoutMs: 1_500 },
    });
    expect(r.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The killed processes leave /proc as soon as they are reaped; a survivor of the kill stays there.
    const alive = () =>
      fs
        .readdirSync("/proc")
        .filter((p) => /^\d+$/.test(p))
        .some((p) => {
          try {
            return fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes(marker);
          } catch {
            return false;
          }
        });
    await eventually(() => expect(alive()).toBe(false), { timeout: 1_000, what: "the orphan to be gone" });
  });

  it("keeps only the last bytes of a flood of output and caps file size", async () => {
    const r = await run(
      "yes line-of-output | head -c 5000000; echo THE-END; head -c 100000000 /dev/zero > big.bin; echo size=$(stat -c %s big.bin)",
      { limits: { ...limits, outputBytes: 8 * 1024, fileBytes: 1024 * 1024 } },
    );
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(r.output)).toBeLessThanOrEqual(8 * 1024);
    expect(r.output).toContain("THE-END");
    expect(r.output).toContain("size=1048576");
  });
});
