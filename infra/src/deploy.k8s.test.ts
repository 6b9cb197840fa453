import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { ROOT } from "./paths";

/** A Kubernetes object, read field by field. */
type Obj = any;

const K8S = path.join(ROOT, "deploy/k8s");
const kubectl = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8" }).status === 0;

/** The objects a kustomization renders: `kubectl kustomize` where installed, else its resources read directly (base only). */
function render(dir: string): Obj[] {
  if (kubectl) {
    const out = spawnSync("kubectl", ["kustomize", path.join(K8S, dir)], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    return parseAllDocuments(out.stdout).map((d) => d.toJS());
  }
  const k = parse(fs.readFileSync(path.join(K8S, dir, "kustomization.yaml"), "utf8")) as Obj;
  expect(k.patchesStrategicMerge ?? []).toEqual([]);
  return (k.resources as string[]).flatMap((f) =>
    parseAllDocuments(fs.readFileSync(path.join(K8S, dir, f), "utf8")).map((d) => ({
      ...d.toJS(),
      metadata: { namespace: k.namespace, ...d.toJS().metadata },
    })),
  );
}

const base = render("base");
const find = (objs: Obj[], kind: string, name: string): Obj => {
  const o = objs.find((x) => x.kind === kind && x.metadata?.name === name);
  expect(o, `${kind}/${name}`).toBeDefined();
  return o;
};
const workloads = (objs: Obj[]) => objs.filter((o) => o.kind === "Deployment" || o.kind === "Job");
const envOf = (container: Obj, name: string): string | undefined =>
  (container.env as Obj[] | undefined)?.find((e) => e.name === name)?.value;
const config = find(base, "ConfigMap", "fixloop").data as Record<string, string>;
const drainSeconds = Number(config.WORKER_DRAIN_SECONDS);

describe("the Kubernetes manifests", () => {
  it("render into one namespace with every part", () => {
    for (const [kind, name] of [
      ["Deployment", "fixloop-api"],
      ["Service", "fixloop-api"],
      ["Deployment", "fixloop-worker-solve"],
      ["Deployment", "fixloop-worker-github"],
      ["Job", "fixloop-migrate"],
      ["ScaledObject", "fixloop-worker-solve"],
      ["PodDisruptionBudget", "fixloop-worker-solve"],
      ["PodDisruptionBudget", "fixloop-api"],
    ] as const)
      expect(find(base, kind, name).metadata.namespace).toBe("fixloop");
  });

  it("run every pod as a non-root user, unprivileged, without added capabilities, with resources set", () => {
    expect(workloads(base).length).toBe(4);
    for (const w of workloads(base)) {
      const pod = w.spec.template.spec;
      const who = w.metadata.name;
      expect(pod.securityContext.runAsNonRoot, who).toBe(true);
      expect(pod.securityContext.runAsUser, who).toBeGreaterThan(0);
      expect(pod.hostNetwork ?? false, who).toBe(false);
      expect(pod.hostPID ?? false, who).toBe(false);
      expect(pod.hostIPC ?? false, who).toBe(false);
      expect(pod.automountServiceAccountToken, who).toBe(false);
      expect(pod.securityContext.seccompProfile?.type, who).toMatch(/^(RuntimeDefault|Localhost)$/);
      for (const v of pod.volumes ?? []) expect(v.hostPath, `${who} ${v.name}`).toBeUndefined();
      for (const c of pod.containers) {
        expect(c.securityContext.privileged ?? false, who).toBe(false);
        expect(c.securityContext.allowPrivilegeEscalation, who).toBe(false);
        expect(c.securityContext.capabilities.drop, who).toEqual(["ALL"]);
        expect(c.securityContext.capabilities.add, who).toBeUndefined();
        expect(c.securityContext.runAsUser ?? pod.securityContext.runAsUser, who).not.toBe(0);
        for (const r of ["requests", "limits"])
          for (const k of ["cpu", "memory"]) expect(c.resources?.[r]?.[k], `${who} ${r}.${k}`).toBeDefined();
      }
    }
  });

  it("probe the API on /api/health", () => {
    const api = find(base, "Deployment", "fixloop-api").spec.template.spec.containers[0];
    for (const probe of ["readinessProbe", "livenessProbe", "startupProbe"])
      expect(api[probe]?.httpGet?.path, probe).toBe("/api/health");
  });

  it("give workers longer to stop than their drain, and run them compiled", () => {
    expect(drainSeconds).toBeGreaterThan(0);
    for (const name of ["fixloop-worker-solve", "fixloop-worker-github"]) {
      const pod = find(base, "Deployment", name).spec.template.spec;
      expect(pod.terminationGracePeriodSeconds, name).toBeGreaterThan(drainSeconds + 10);
      expect(pod.containers[0].command, name).toEqual(["node", "worker/dist/main.mjs"]);
    }
  });

  it("run the API and the migration job compiled too", () => {
    expect(find(base, "Deployment", "fixloop-api").spec.template.spec.containers[0].command).toEqual([
      "node",
      "api/dist/main.mjs",
    ]);
    expect(find(base, "Job", "fixloop-migrate").spec.template.spec.containers[0].command).toEqual([
      "node",
      "infra/dist/migrate.mjs",
    ]);
  });

  it("confine the solve workers to what bwrap needs, and keep sandbox queues off the other workers", () => {
    const pod = find(base, "Deployment", "fixloop-worker-solve").spec.template.spec;
    const c = pod.containers[0];
    expect(envOf(c, "WORKER_QUEUES")?.split(",")).toEqual(expect.arrayContaining(["solve", "tests-rerun"]));
    expect(envOf(c, "SANDBOX_BACKEND")).toBe("bwrap");
    expect(pod.securityContext.seccompProfile).toEqual({ type: "Localhost", localhostProfile: "fixloop-worker.json" });
    // An unmasked /proc only inside the pod's own user namespace.
    expect(c.securityContext.procMount).toBe("Unmasked");
    expect(pod.hostUsers).toBe(false);
    const other = find(base, "Deployment", "fixloop-worker-github").spec.template.spec.containers[0];
    const queues = envOf(other, "WORKER_QUEUES")?.split(",") ?? [];
    expect(queues.length).toBeGreaterThan(0);
    for (const q of ["solve", "tests-rerun", "backtest"]) expect(queues).not.toContain(q);
    expect(envOf(other, "SANDBOX_BACKEND")).toBe("off");
  });

  it("scale the solve workers on the solve queue and keep one of each up through a node drain", () => {
    const scaled = find(base, "ScaledObject", "fixloop-worker-solve");
    expect(scaled.spec.scaleTargetRef.name).toBe("fixloop-worker-solve");
    expect(scaled.spec.triggers[0].metadata.query).toContain('queue="solve"');
    const solve = find(base, "Deployment", "fixloop-worker-solve").spec.template.spec.containers[0];
    expect(Number(scaled.spec.triggers[0].metadata.threshold)).toBe(Number(envOf(solve, "WORKER_CONCURRENCY")));
    for (const name of ["fixloop-api", "fixloop-worker-solve", "fixloop-worker-github"]) {
      const pdb = find(base, "PodDisruptionBudget", name);
      const labels = find(base, "Deployment", name).spec.template.metadata.labels;
      expect(labels).toMatchObject(pdb.spec.selector.matchLabels);
    }
  });
});

describe("the NetworkPolicies", () => {
  const policies = base.filter((o) => o.kind === "NetworkPolicy");
  const forPod = (name: string) =>
    policies.filter((p) => {
      const sel = p.spec.podSelector;
      return !sel.matchLabels && !sel.matchExpressions ? true : sel.matchLabels?.["app.kubernetes.io/name"] === name;
    });

  it("deny everything in the namespace unless a policy allows it", () => {
    const deny = policies.find((p) => Object.keys(p.spec.podSelector).length === 0);
    expect(deny?.spec.policyTypes).toEqual(["Ingress", "Egress"]);
    expect(deny?.spec.ingress).toBeUndefined();
    expect(deny?.spec.egress).toBeUndefined();
  });

  it("let solve workers reach only DNS, Postgres, Redis and public HTTPS, and nothing reach them", () => {
    const own = forPod("fixloop-worker-solve").filter((p) => Object.keys(p.spec.podSelector).length > 0);
    expect(own).toHaveLength(1);
    const rules: Obj[] = own[0].spec.egress;
    expect(own[0].spec.ingress).toEqual([]);
    const ports = rules.flatMap((r: Obj) => r.ports.map((p: Obj) => p.port)).sort((a: number, b: number) => a - b);
    expect([...new Set(ports)]).toEqual([53, 443, 5432, 6379]);
    const byPort = (port: number) => rules.find((r: Obj) => r.ports.some((p: Obj) => p.port === port));
    expect(byPort(5432).to).toEqual([{ podSelector: { matchLabels: { "app.kubernetes.io/name": "postgres" } } }]);
    expect(byPort(6379).to).toEqual([{ podSelector: { matchLabels: { "app.kubernetes.io/name": "redis" } } }]);
    // Public addresses only: no cluster, LAN, loopback or metadata service on 443.
    const v4 = byPort(443).to.find((t: Obj) => t.ipBlock?.cidr === "0.0.0.0/0").ipBlock.except;
    expect(v4).toEqual(
      expect.arrayContaining(["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "127.0.0.0/8"]),
    );
    const v6 = byPort(443).to.find((t: Obj) => t.ipBlock?.cidr === "::/0").ipBlock.except;
    expect(v6).toEqual(expect.arrayContaining(["fc00::/7", "fe80::/10"]));
  });
});

describe("the gVisor overlay", () => {
  // kubectl renders the overlay; without it the patch is read as written.
  const objs = kubectl
    ? render("overlays/gvisor")
    : [parse(fs.readFileSync(path.join(K8S, "overlays/gvisor/worker-solve-gvisor.yaml"), "utf8")) as Obj];

  it("runs the solve workers under the gvisor RuntimeClass and leaves the rest alone", () => {
    const solve = find(objs, "Deployment", "fixloop-worker-solve").spec.template.spec;
    expect(solve.runtimeClassName).toBe("gvisor");
    if (kubectl) {
      expect(find(objs, "Deployment", "fixloop-api").spec.template.spec.runtimeClassName).toBeUndefined();
      expect(solve.containers[0].securityContext.capabilities.drop).toEqual(["ALL"]);
      expect(solve.securityContext.runAsNonRoot).toBe(true);
    }
  });
});
