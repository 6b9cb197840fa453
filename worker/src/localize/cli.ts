/**
 * npm run -s localize -- --repo DIR --issue FILE [--top N] [--budget TOKENS] [--baseline bm25] [--threads N]
 * Prints only a JSON array of repository-relative paths, best first. Offline; reads DIR only.
 */
import { readFile } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { bm25Baseline } from "./baseline";
import { LocalizeCache } from "./cache";
import { filesFromDirectory } from "./files";
import { splitIssue } from "./issue-text";
import { issueTerms, localize } from "./localize";
import { setLocalizeThreads } from "./threads";

/**
 * Threads only pay when cores are idle: on a busy machine their start-up and hand-overs cost
 * more than they save (the ranking is the same either way). One per idle core, at most 4; none
 * with fewer than two idle cores.
 */
function idleThreads(): number {
  const idle = availableParallelism() - (loadavg()[0] ?? 0);
  return idle >= 2 ? Math.min(4, Math.floor(idle)) : 0;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      repo: { type: "string" },
      issue: { type: "string" },
      top: { type: "string", default: "10" },
      budget: { type: "string" },
      baseline: { type: "string" },
      threads: { type: "string" },
    },
  });
  if (!values.repo || !values.issue)
    throw new Error(
      "usage: localize --repo DIR --issue FILE [--top N] [--budget TOKENS] [--baseline bm25] [--threads N]",
    );
  if (values.baseline !== undefined && values.baseline !== "bm25")
    throw new Error(`unknown baseline: ${values.baseline}`);
  const top = Number.parseInt(values.top, 10);
  if (!Number.isInteger(top) || top < 1) throw new Error(`--top must be a positive integer`);
  const threads = values.threads === undefined ? idleThreads() : Number(values.threads);
  if (!Number.isInteger(threads) || threads < 0 || threads > 64)
    throw new Error(`--threads must be an integer from 0 to 64`);
  setLocalizeThreads(threads);
  const { title, body } = splitIssue(await readFile(values.issue, "utf8"));
  const files = await filesFromDirectory(values.repo);
  const input = {
    files,
    // This process ranks one issue: its index keeps that issue's terms only.
    cache: new LocalizeCache({ terms: issueTerms(title, body) }),
    issueTitle: title,
    issueBody: body,
    top,
    ...(values.budget ? { tokenBudget: Number(values.budget) } : {}),
  };
  const ranked = values.baseline ? await bm25Baseline(input) : (await localize(input)).files;
  process.stdout.write(`${JSON.stringify(ranked.map((f) => f.path))}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
});
