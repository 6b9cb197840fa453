import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ROOT } from "../../paths";
import { childrenCpuSeconds } from "./child-cpu";
import type { BatchItem, ChildLine, EvalMethod } from "./eval-child";

const run = promisify(execFile);

/**
 * One method over a batch: "cli" runs `npm run -s localize` in a fresh process per issue (what a
 * user waits for, module loading included); the others run in one child process for the batch.
 */
export async function runMethod(
  method: EvalMethod,
  items: readonly BatchItem[],
  share: boolean,
): Promise<{ lines: ChildLine[]; rss: number }> {
  return method === "cli" ? runCli(items) : runChild(method, items, share);
}

async function runCli(items: readonly BatchItem[]): Promise<{ lines: ChildLine[]; rss: number }> {
  const lines: ChildLine[] = [];
  for (const item of items) {
    const started = performance.now();
    const cpuBefore = childrenCpuSeconds();
    const { stdout } = await run(
      "npm",
      ["run", "-s", "localize", "--", "--repo", item.dir, "--issue", item.issueFile],
      {
        cwd: ROOT,
        maxBuffer: 16 << 20,
      },
    );
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = childrenCpuSeconds();
    const cpu = cpuBefore !== undefined && cpuAfter !== undefined ? { cpuSeconds: cpuAfter - cpuBefore } : {};
    lines.push({ id: item.id, ranked: JSON.parse(stdout) as string[], seconds, ...cpu });
  }
  return { lines, rss: 0 };
}

async function runChild(
  method: EvalMethod,
  items: readonly BatchItem[],
  share: boolean,
): Promise<{ lines: ChildLine[]; rss: number }> {
  const dir = await mkdtemp(join(tmpdir(), "loc-eval-"));
  const batch = join(dir, "batch.json");
  await writeFile(batch, JSON.stringify(items));
  const child = fileURLToPath(new URL("./eval-child.ts", import.meta.url));
  const tsx = import.meta.resolve("tsx");
  const { stdout } = await run(
    process.execPath,
    ["--import", tsx, child, "--child", method, batch, share ? "share" : "cold", "10"],
    { maxBuffer: 256 << 20 },
  ).finally(() => rm(dir, { recursive: true, force: true }));
  const lines: ChildLine[] = [];
  let rss = 0;
  for (const line of stdout.split("\n")) {
    if (!line.trim()) continue;
    const v = JSON.parse(line) as ChildLine | { maxRssKiB: number };
    if ("maxRssKiB" in v) rss = v.maxRssKiB;
    else lines.push(v);
  }
  return { lines, rss };
}
