import fs from "node:fs";
import path from "node:path";
import {
  DEFAULT_MODEL_ID,
  findModel,
  modelsConfigFromEnv,
  type GeneratedCandidate,
  type SolutionTests,
} from "@fixloop/contract";
import {
  abstain,
  applyGeneratedFiles,
  askReproduction,
  dedupeCandidates,
  evidenceOf,
  generateSolution,
  rankCandidates,
} from "@fixloop/worker";
import {
  baseTree,
  bwrapAvailable,
  bwrapRunner,
  checkout,
  handToSandbox,
  type SandboxLimits,
} from "@fixloop/worker/tests-run";
import { startModelSandbox } from "@fixloop/testkit/sandbox";
import type { Figure } from "./report";
import { badKinds, scriptedKinds, selectionIssue, writeIssue, type SelectionIssue } from "./selection-issues";
import type { BenchContext, Section } from "./section.types";

const ISSUES = 30;
const limits: SandboxLimits = {
  timeoutMs: 60_000,
  memoryBytes: 2 * 1024 ** 3,
  processes: 128,
  fileBytes: 64 * 1024 ** 2,
  outputBytes: 64 * 1024,
};
const COMMAND = "node --test --test-reporter=tap";

/** Test outcomes by name from TAP (`ok 1 - name` / `not ok 2 - name`). */
function outcomes(output: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const m of output.matchAll(/^\s*(not )?ok \d+ - (.+)$/gm)) if (m[2]) out.set(m[2].trim(), !m[1]);
  return out;
}

/**
 * "selection": 30 scripted issues (a failing test on base each), run with N = 1, 2 and 4 candidates
 * from the model stand-in (one known-good candidate, the others regressing, not fixing, or larger),
 * through the real dedup, sandboxed tests (base shared per run) and ranking. Each run first asks the
 * stand-in for a reproduction test (kept when it fails on base) that scores every candidate; each
 * issue also runs once with no known-good candidate, where the run must abstain.
 */
export const selectionSection: Section = {
  name: "selection",
  async run(ctx: BenchContext): Promise<Figure[]> {
    if (!bwrapAvailable()) {
      process.stderr.write("  bwrap not found: selection section skipped\n");
      return [];
    }
    const models = await startModelSandbox();
    const cfg = modelsConfigFromEnv(models.env);
    const model = findModel(cfg, DEFAULT_MODEL_ID);
    if (!model) throw new Error("The stand-in's default model is not configured");
    const cache = { root: path.join(ctx.dir, "selection-workspaces"), maxBytes: 1024 ** 3 };
    fs.rmSync(cache.root, { recursive: true, force: true });
    const runner = bwrapRunner();
    const testIn = async (baseDir: string, files: { filename: string; content: string }[]) => {
      const ws = await checkout(cache, baseDir);
      try {
        for (const f of files) fs.writeFileSync(path.join(ws.dir, f.filename), f.content);
        await handToSandbox(ws.dir);
        const r = await runner.run({ workspace: ws.dir, command: COMMAND, network: false, limits });
        return outcomes(r.output);
      } finally {
        await ws.dispose();
      }
    };
    const solveOne = async (i: number, issue: SelectionIssue, n: number, withGood: boolean) => {
      const kinds = withGood ? scriptedKinds(i, n) : badKinds(i, n);
      models.control.respondPerCandidate(
        (p) => p.includes(`${issue.title}\n`),
        kinds.map((k) => issue.answers[k]),
      );
      const source = path.join(ctx.dir, "selection-repo", String(i));
      writeIssue(source, issue);
      // A commit per N: every pass builds its base trees cold, so the passes compare fairly.
      const base = await baseTree(cache, "bench", `sel${i}`, `${withGood ? 1 : 2}${n}${i}`.padStart(40, "0"), (d) =>
        fs.promises.cp(source, d, { recursive: true }),
      );
      const before = await testIn(base.dir, []);
      const repro = await reproductionOf(issue, base.dir, before);
      const answers = await Promise.all(
        kinds.map((_, k) =>
          generateSolution(cfg, {
            model,
            system: "Fix the issue.",
            prompt: `Title: ${issue.title}\n${n > 1 ? `Candidate ${k + 1} of ${n}\n` : ""}`,
            signal: AbortSignal.timeout(30_000),
          }),
        ),
      );
      const generated: GeneratedCandidate[] = answers.map((a, k) => ({
        n: k + 1,
        variation: "scripted",
        analysis: a.solution.analysis,
        proposedSolution: a.solution.proposedSolution,
        confidence: a.solution.confidence,
        filesChanged: applyGeneratedFiles(a.solution.files, new Map([[issue.file, issue.source]])).changes,
        duplicates: [],
      }));
      const judged = [];
      for (const c of dedupeCandidates(generated)) {
        const after = await testIn(base.dir, c.filesChanged);
        const fixed = [...after].filter(([t, ok]) => ok && before.get(t) === false).map(([t]) => t);
        const regressions = [...before].filter(([t, ok]) => ok && !after.get(t)).map(([t]) => t);
        const tests: SolutionTests = {
          command: COMMAND,
          backend: "bwrap",
          base: null,
          patched: null,
          fixed,
          regressions,
          logTail: "",
          status: regressions.length ? "failed" : "passed",
          attempts: [],
        };
        const r = repro.kept
          ? await testIn(base.dir, [...c.filesChanged, repro.file]).then((o) => ({
              test: repro.file.filename,
              status: repro.failing.every((t) => o.get(t) === true) ? ("fixed" as const) : ("still-failing" as const),
            }))
          : null;
        judged.push({ candidate: c, evidence: evidenceOf(c, false, tests, r), tests });
      }
      const winner = rankCandidates(judged, n).winner;
      const abstained = abstain(
        judged.map((j) => j.evidence),
        repro.kept
          ? { ...repro.file, status: "kept", note: "", failing: repro.failing, passesWithSolution: null }
          : null,
      );
      return { good: kinds[winner - 1] === "good", abstained: abstained !== null };
    };
    /** The stand-in's reproduction test, run on the base tree: kept when one of its tests fails there. */
    const reproductionOf = async (issue: SelectionIssue, baseDir: string, before: Map<string, boolean>) => {
      models.control.reproduceWith((p) => p.includes(`${issue.title}\n`), {
        filename: "test/clamp.repro.test.js",
        content: issue.reproduction,
        reason: "",
      });
      const asked = await askReproduction({
        models: cfg,
        model,
        signal: AbortSignal.timeout(30_000),
        title: issue.title,
        body: "",
        command: COMMAND,
        allPaths: [issue.file, "test/clamp.test.js", "package.json"],
        files: [{ path: issue.file, content: issue.source }],
        read: () => Promise.resolve(issue.tests),
      });
      const file = { filename: asked.test?.filename ?? "", content: asked.test?.content ?? "" };
      if (!asked.test) return { kept: false, file, failing: [] };
      const onBase = await testIn(baseDir, [file]);
      const failing = [...onBase].filter(([t, ok]) => !ok && !before.has(t)).map(([t]) => t);
      return { kept: failing.length > 0, file, failing };
    };
    const figures: Figure[] = [];
    const times = new Map<number, number>();
    try {
      for (const n of [1, 2, 4]) {
        let good = 0;
        let wrongAbstentions = 0;
        const t0 = performance.now();
        for (let i = 0; i < ISSUES; i++) {
          const r = await solveOne(i, selectionIssue(i), n, true);
          if (r.good) good++;
          if (r.abstained) wrongAbstentions++;
        }
        times.set(n, performance.now() - t0);
        let abstained = 0;
        for (let i = 0; i < ISSUES; i++) if ((await solveOne(i, selectionIssue(i), n, false)).abstained) abstained++;
        figures.push(
          {
            section: `selection (${ISSUES} scripted issues)`,
            name: `N = ${n}, no known-good candidate: abstained (unverified)`,
            value: Math.round((100 * abstained) / ISSUES),
            unit: "%",
            target: "100%",
            holds: abstained === ISSUES,
          },
          {
            section: `selection (${ISSUES} scripted issues)`,
            name: `N = ${n}, a known-good candidate: abstained although it exists`,
            value: Math.round((100 * wrongAbstentions) / ISSUES),
            unit: "%",
            target: "0%",
            holds: wrongAbstentions === 0,
          },
        );
        figures.push({
          section: `selection (${ISSUES} scripted issues)`,
          name: `N = ${n}: selected the known-good candidate`,
          value: Math.round((100 * good) / ISSUES),
          unit: "%",
          target: "100%",
          holds: good === ISSUES,
        });
      }
    } finally {
      await models.stop();
      fs.rmSync(cache.root, { recursive: true, force: true });
    }
    const one = times.get(1) ?? 1;
    for (const n of [1, 2, 4])
      figures.push({
        section: `selection (${ISSUES} scripted issues)`,
        name: `N = ${n}: wall time of the ${ISSUES} runs`,
        value: (times.get(n) ?? 0) / 1000,
        unit: "s",
        baseline: one / 1000,
        baselineName: "N = 1",
      });
    return figures;
  },
};
