import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bwrapRunner } from "../tests-run/sandbox.bwrap";
import { parseAllowedHosts } from "../tests-run/sandbox.egress.policy";
import { runSelfCheck, type SelfCheckInput } from "./selfcheck";

const MiB = 1024 * 1024;
const scratchRoot = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-selfcheck-egress-"));
afterAll(() => fs.rmSync(scratchRoot, { recursive: true, force: true }));

const input = (egressRunner: SelfCheckInput["egressRunner"]): SelfCheckInput => ({
  backend: "bwrap",
  mode: "on",
  runner: bwrapRunner({ egress: parseAllowedHosts([]) }),
  limits: { timeoutMs: 20_000, memoryBytes: 1024 * MiB, processes: 256, fileBytes: 64 * MiB, outputBytes: 64 * 1024 },
  hostPaths: ["/etc/shadow"],
  scratchRoot,
  egressRunner,
});

describe("the self-check's egress wall", () => {
  it("holds when the proxy refuses an allowed name for the loopback address it resolves to", async () => {
    const check = await runSelfCheck(input((allow) => bwrapRunner({ egress: parseAllowedHosts(allow) })));
    expect(check.walls.egress).toBe("held");
    expect(check.detail.egress).toBeUndefined();
  });

  it("counts only a refusal for the resolved address: a name refused for not being allowed proves nothing", async () => {
    // The name left off the allowlist: the proxy refuses it before resolving, so the check cannot
    // tell whether resolved addresses are judged, and says the wall is missing.
    const check = await runSelfCheck(input(() => bwrapRunner({ egress: parseAllowedHosts([]) })));
    expect(check.ok).toBe(false);
    expect(check.walls.egress).toBe("missing");
    expect(check.detail.egress).toMatch(
      /^not refused: localhost:\d+ \(HTTP\/1\.1 403 [^|]*\| .*host not on the allowlist/,
    );
  });
});
