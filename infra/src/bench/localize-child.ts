import { filesFromDirectory, localize, bm25Baseline, LocalizeCache } from "@fixloop/worker/localize";

// Child process for the large-repository benchmark: `tsx localize-child.ts DIR TITLE BODY [bm25]`; prints JSON figures.
const [dir, title, body, mode] = process.argv.slice(2);
if (!dir || !title || !body) throw new Error("usage: localize-child DIR TITLE BODY [bm25]");
const cache = new LocalizeCache();
const run = async () => {
  const t0 = performance.now();
  const files = await filesFromDirectory(dir);
  const input = { files, issueTitle: title, issueBody: body, top: 10, cache };
  const ranked = mode === "bm25" ? await bm25Baseline(input) : (await localize(input)).files;
  return { ms: performance.now() - t0, top: ranked.slice(0, 5).map((f) => f.path), files: files.length };
};
const cold = await run();
const warm = mode === "bm25" ? cold : await run();
console.log(JSON.stringify({ cold, warm, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
