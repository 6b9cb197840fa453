import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bm25Baseline, buildImportGraph, filesFromDirectory, localize, LocalizeCache, type RepoFile } from "./index";
import { BILLING, POLYGLOT, POLYGLOT_EDGES, writeTree } from "../../test/localize.fixtures";

const run = promisify(execFile);
let root: string;
let polyglot: string;
let billing: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "localize-test-"));
  polyglot = join(root, "polyglot");
  billing = join(root, "billing");
  await writeTree(polyglot, POLYGLOT);
  await writeTree(billing, BILLING);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function listing(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const p = join(e.parentPath, e.name);
    const s = await stat(p);
    out.push(`${p}\t${s.size}\t${s.mtimeMs}`);
  }
  return out.sort();
}

describe("import graph", () => {
  it("links each language's imports to the files they name", async () => {
    const graph = await buildImportGraph(await filesFromDirectory(polyglot));
    for (const [from, to] of POLYGLOT_EDGES) expect([...graph.importsOf(from)], `${from} → ${to}`).toContain(to);
    expect(graph.importsOf("cmd/server/main.go").size).toBe(1); // "fmt" is external
  });
});

describe("localize", () => {
  it("ranks the file defining a function named in the issue first", async () => {
    const files = await filesFromDirectory(billing);
    const result = await localize({
      files,
      issueTitle: "compute_invoice_total adds negative discounts",
      issueBody:
        "Calling `compute_invoice_total(lines, -5)` returns 105 instead of 100: a negative discount should be ignored.",
    });
    expect(result.files[0]?.path).toBe("billing/totals.py");
    expect(result.files[0]?.reasons).toContain("defines `compute_invoice_total` named in issue");
    expect(result.testFilesNear(["billing/totals.py"])).toEqual(["tests/test_totals.py"]);
    expect(result.languages.python).toBeGreaterThan(0);
  });

  it("honours stack-trace frames from another machine's paths", async () => {
    const files = await filesFromDirectory(billing);
    const result = await localize({
      files,
      issueTitle: "AttributeError in run_job",
      issueBody: [
        "Traceback (most recent call last):",
        '  File "/home/me/venv/lib/python3.11/site-packages/billing/export.py", line 5, in export_invoice',
        '  File "/home/me/venv/lib/python3.11/site-packages/billing/engine/runner.py", line 2, in run_job',
        "AttributeError: 'NoneType' object has no attribute 'discount' (invoice total export)",
      ].join("\n"),
      top: 3,
    });
    const paths = result.files.map((f) => f.path);
    expect(paths[0]).toBe("billing/engine/runner.py");
    expect(paths).toContain("billing/export.py");
    expect(result.files[0]?.reasons.some((r) => r.startsWith("in stack trace"))).toBe(true);
  });

  it("never returns files outside the repository or files that cannot be read", async () => {
    const real = await filesFromDirectory(billing);
    const bogus = (path: string): RepoFile => ({
      path,
      size: 10,
      read: async () => "def compute_invoice_total(): pass",
    });
    const missing: RepoFile = { path: "billing/gone.py", size: 10, read: () => Promise.reject(new Error("ENOENT")) };
    const files = [...real, bogus("../outside.py"), bogus("/etc/passwd.py"), bogus("billing/../../x.py"), missing];
    const issue = {
      issueTitle: "compute_invoice_total fails, see billing/gone.py and ../outside.py and /etc/passwd.py",
      issueBody: 'File "billing/gone.py", line 1, in compute_invoice_total',
    };
    const result = await localize({ files, ...issue, top: 20 });
    const baseline = await bm25Baseline({ files, ...issue, top: 20 });
    const allowed = new Set(real.map((f) => f.path));
    for (const f of [...result.files, ...baseline]) expect(allowed.has(f.path), f.path).toBe(true);
    expect(result.files.length).toBeGreaterThan(0);
    expect(result.stats.skipped).toBe(4);
  });

  it("keeps the chosen files within the token budget", async () => {
    const files = await filesFromDirectory(billing);
    const issue = { issueTitle: "invoice total discount", issueBody: "compute_invoice_total" };
    const all = await localize({ files, ...issue });
    const budget = Math.ceil(
      all.files.slice(0, 2).reduce((n, f) => n + (files.find((x) => x.path === f.path)?.size ?? 0), 0) / 4,
    );
    const limited = await localize({ files, ...issue, tokenBudget: budget });
    const used = limited.files.reduce(
      (n, f) => n + Math.ceil((files.find((x) => x.path === f.path)?.size ?? 0) / 4),
      0,
    );
    expect(used).toBeLessThanOrEqual(budget);
    expect(limited.files[0]?.path).toBe(all.files[0]?.path);
  });

  it("reuses cached statistics across issues of the same repository", async () => {
    const cache = new LocalizeCache();
    const files = await filesFromDirectory(billing);
    await localize({ files, issueTitle: "apply_discount", issueBody: "", cache });
    const reads: string[] = [];
    const counted = files.map((f) => ({ ...f, read: () => (reads.push(f.path), f.read()) }));
    const second = await localize({
      files: counted,
      issueTitle: "apply_discount is wrong",
      issueBody: "",
      cache,
      top: 1,
    });
    expect(second.files[0]?.path).toBe("billing/discounts.py");
    expect(reads).toEqual(["billing/discounts.py"]); // only the existence check of the chosen file
  });
});

describe("cli", () => {
  it("prints only a JSON array of paths and writes nothing inside the repository", async () => {
    const issue = join(root, "issue.md");
    await writeFile(
      issue,
      "compute_invoice_total adds negative discounts\n\nCalling `compute_invoice_total(lines, -5)` returns 105 instead of 100.\n",
    );
    const before = await listing(billing);
    const cli = fileURLToPath(new URL("./cli.ts", import.meta.url));
    const tsx = import.meta.resolve("tsx");
    const launcher = fileURLToPath(new URL("../../bin/localize.mjs", import.meta.url));
    for (const extra of [[], ["--baseline", "bm25"]]) {
      const { stdout } = await run(process.execPath, [
        "--import",
        tsx,
        cli,
        "--repo",
        billing,
        "--issue",
        issue,
        "--top",
        "3",
        ...extra,
      ]);
      const parsed = JSON.parse(stdout) as unknown;
      expect(Array.isArray(parsed)).toBe(true);
      expect(stdout.trim()).toBe(JSON.stringify(parsed));
      expect((parsed as string[]).length).toBeLessThanOrEqual(3);
      expect((parsed as string[]).every((p) => typeof p === "string" && !p.startsWith("/"))).toBe(true);
      if (extra.length === 0) expect((parsed as string[])[0]).toBe("billing/totals.py");
      // `npm run localize` starts the same CLI from its cached bundle, on plain node.
      const launched = await run(process.execPath, [
        launcher,
        "--repo",
        billing,
        "--issue",
        issue,
        "--top",
        "3",
        ...extra,
      ]);
      expect(launched.stdout).toBe(stdout);
    }
    await expect(
      run(process.execPath, [launcher, "--repo", billing, "--issue", issue, "--threads", "many"]),
    ).rejects.toThrow(/--threads must be an integer from 0 to 64/);
    expect(await listing(billing)).toEqual(before);
  });
});
