import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { childrenCpuSeconds } from "./child-cpu";

describe("childrenCpuSeconds", () => {
  it("grows by the CPU time of a child that has ended, not by the time it slept", () => {
    const before = childrenCpuSeconds();
    expect(before).toBeDefined();
    // 0.4 s of CPU (however long that takes on a busy machine), then 0.8 s asleep.
    const busy = "let x = 0; while (process.cpuUsage().user < 400_000) for (let i = 0; i < 1e6; i++) x += i;";
    execFileSync(process.execPath, ["-e", `${busy} setTimeout(() => {}, 800);`]);
    const used = (childrenCpuSeconds() ?? 0) - (before ?? 0);
    expect(used).toBeGreaterThanOrEqual(0.39);
    expect(used).toBeLessThan(1);
  });
});
