import { readFileSync } from "node:fs";
import { bm25Baseline, filesFromDirectory, LocalizeCache, localize } from "@fixloop/worker/localize";

/**
 * Child process of the large-repository bench: `tsx localize-child.ts DIR ISSUES.json [bm25]`.
 * The first issue runs cold (the index is built), every issue then runs warm on the same cache;
 * prints JSON figures. Both methods run the same way, so cold compares with cold, warm with warm.
 */
const [dir, issuesFile, mode] = process.argv.slice(2);
if (!dir || !issuesFile) throw new Error("usage: localize-child DIR ISSUES.json [bm25]");
const issues = JSON.parse(readFileSync(issuesFile, "utf8")) as { title: string; body: string }[];
const cache = new LocalizeCache();
const run = async (issue: { title: string; body: string }) => {
  const t0 = performance.now();
  const files = await filesFromDirectory(dir);
  const input = { files, issueTitle: issue.title, issueBody: issue.body, top: 10, cache };
  const ranked = mode === "bm25" ? await bm25Baseline(input) : (await localize(input)).files;
  return { ms: performance.now() - t0, top: ranked.map((f) => f.path), files: files.length };
};
const first = issues[0];
if (!first) throw new Error("no issue");
const cold = await run(first);
const warm = [];
for (const issue of issues) warm.push(await run(issue));
console.log(JSON.stringify({ cold, warm, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
