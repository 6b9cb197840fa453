/**
 * npm run -s localize -- --repo DIR --issue FILE [--top N] [--budget TOKENS] [--baseline bm25]
 * Prints only a JSON array of repository-relative paths, best first. Offline; reads DIR only.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { bm25Baseline } from "./baseline";
import { filesFromDirectory } from "./files";
import { splitIssue } from "./issue-text";
import { localize } from "./localize";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      repo: { type: "string" },
      issue: { type: "string" },
      top: { type: "string", default: "10" },
      budget: { type: "string" },
      baseline: { type: "string" },
    },
  });
  if (!values.repo || !values.issue)
    throw new Error("usage: localize --repo DIR --issue FILE [--top N] [--budget TOKENS] [--baseline bm25]");
  if (values.baseline !== undefined && values.baseline !== "bm25")
    throw new Error(`unknown baseline: ${values.baseline}`);
  const top = Number.parseInt(values.top, 10);
  if (!Number.isInteger(top) || top < 1) throw new Error(`--top must be a positive integer`);
  const { title, body } = splitIssue(await readFile(values.issue, "utf8"));
  const files = await filesFromDirectory(values.repo);
  const input = {
    files,
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
