import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createTestStack } from "../../test/stack";

const ROOT = path.resolve(import.meta.dirname, "../../..");

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

  it("docker-compose.yml scales the API and the workers independently: no fixed name or host port on either, one proxy publishes PORT", () => {
    const compose = parse(fs.readFileSync(path.join(ROOT, "docker-compose.yml"), "utf8")) as {
      services: Record<string, { container_name?: string; ports?: string[]; volumes?: string[] }>;
    };
    for (const name of ["api", "worker"]) {
      const service = compose.services[name];
      expect(service, name).toBeDefined();
      expect(service?.container_name, name).toBeUndefined();
      expect(service?.ports, name).toBeUndefined();
    }
    const published = Object.entries(compose.services).filter(([, s]) => s.ports?.length);
    expect(published.map(([n]) => n)).toEqual(["proxy"]);
    const mount = compose.services.proxy?.volumes?.[0]?.split(":")[0] ?? "";
    expect(fs.readFileSync(path.join(ROOT, mount), "utf8")).toMatch(/dynamic a \{\s*name api\s*port 3000/);
  });

  it("docker-compose.yml has no default password for Postgres or Redis: each must be set, Redis requires one", () => {
    const text = fs.readFileSync(path.join(ROOT, "docker-compose.yml"), "utf8");
    const uses = [...text.matchAll(/\$\{(\w*PASSWORD\w*)(:?[-?=+])?/g)];
    expect(new Set(uses.map((m) => m[1]))).toEqual(
      new Set(["POSTGRES_PASSWORD", "POSTGRES_APP_PASSWORD", "REDIS_PASSWORD"]),
    );
    for (const m of uses) expect(m[2], m[0]).toBe(":?");
    // No literal secret in a connection string either: every credential is an interpolation.
    for (const url of text.match(/(postgres|redis):\/\/[^@\s]*@/g) ?? []) expect(url).toMatch(/:\$\{\w+:\?[^}]*\}@$/);
    expect(text).toContain('--requirepass "$$REDIS_PASSWORD"');
  });
});
