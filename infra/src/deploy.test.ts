import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createTestStack } from "@fixloop/infra/testing/stack";
import { ROOT } from "./paths";

const PROMETHEUS = path.join(ROOT, "deploy/prometheus");

/** Runs promtool (Debian's prometheus package; .ci/run installs it) and returns its output; throws on failure. */
const promtool = (...args: string[]) =>
  execFileSync("promtool", args, { cwd: PROMETHEUS, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** Metric family names an expression reads (histogram series folded into their family; recorded `a:b:c` names skipped). */
const familiesIn = (expr: string) =>
  [...expr.matchAll(/(?<![\w:])fixloop_[a-z0-9_]+(?![\w:])/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, ""));

interface RuleGroup {
  rules: { alert?: string; record?: string; expr: string }[];
}

describe("the deployment files in deploy/", () => {
  it("alert rules pass promtool's check and its unit tests (each alert fires on a bad series, not on a healthy one)", () => {
    expect(promtool("check", "rules", "alerts.yml")).toMatch(/SUCCESS: \d+ rules found/);
    expect(promtool("test", "rules", "alerts.test.yml")).toContain("SUCCESS");
  });

  it("alerts and the KEDA trigger read metric families that /metrics serves", async () => {
    const groups = (parse(fs.readFileSync(path.join(PROMETHEUS, "alerts.yml"), "utf8")) as { groups: RuleGroup[] })
      .groups;
    const alerts = groups.flatMap((g) => g.rules).filter((r) => r.alert);
    expect(alerts.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        "FixloopJobFailureRateHigh",
        "FixloopBacklogTooOld",
        "FixloopNoWorkers",
        "FixloopSolveDurationHigh",
        "FixloopJobsStalled",
      ]),
    );
    const scaled = parse(fs.readFileSync(path.join(ROOT, "deploy/keda/worker-scaledobject.yaml"), "utf8")) as {
      kind: string;
      spec: { triggers: { type: string; metadata: { query: string; threshold: string } }[] };
    };
    expect(scaled.kind).toBe("ScaledObject");
    const trigger = scaled.spec.triggers[0];
    expect(trigger?.type).toBe("prometheus");
    expect(trigger?.metadata.query).toContain('queue="solve"');
    expect(Number(trigger?.metadata.threshold)).toBeGreaterThan(0);

    const t = await createTestStack({ workers: false });
    const text = await (await t.app.request("/metrics")).text();
    const used = new Set([
      ...groups.flatMap((g) => g.rules).flatMap((r) => familiesIn(r.expr)),
      ...familiesIn(trigger?.metadata.query ?? ""),
    ]);
    expect(used.size).toBeGreaterThan(4);
    for (const name of used) expect(text, name).toMatch(new RegExp(`^# TYPE ${name} `, "m"));
    // The states the trigger adds up are the ones the gauge reports.
    for (const state of ["waiting", "prioritized", "active"])
      expect(text).toContain(`fixloop_queue_jobs{queue="solve",state="${state}"}`);
  });
});
