import fs from "node:fs";
import { analyzing } from "@fixloop/worker";
import path from "node:path";
import { evalDir } from "./localize/eval";
import type { Figure } from "./report";

export const TUNE_SET = path.join(evalDir(), "swe-bench-lite-tune.json");
/** Types that would describe a code fix as something else: every tune instance is a code fix. */
const NOT_CODE = new Set(["docs", "test", "refactor", "chore"]);

/**
 * Step 1 on the 223 tune instances' problem statements (first line as title, no labels, as a
 * GitHub issue pasted from SWE-bench would read): every one is a code fix, so docs/test/refactor/chore
 * is a misclassification.
 */
export async function classifyFigures(appendix: string[]): Promise<Figure[]> {
  if (!fs.existsSync(TUNE_SET)) {
    process.stderr.write(`  ${TUNE_SET} not found: classify figures skipped\n`);
    return [];
  }
  const instances = JSON.parse(fs.readFileSync(TUNE_SET, "utf8")) as {
    instance_id: string;
    problem_statement: string;
  }[];
  const counts = new Map<string, number>();
  const wrong: string[] = [];
  for (const i of instances) {
    const [title = "", ...rest] = i.problem_statement.split("\n");
    const { output } = await analyzing({ title, body: rest.join("\n"), labels: [] });
    const t = output.classification.type;
    counts.set(t, (counts.get(t) ?? 0) + 1);
    if (NOT_CODE.has(t)) wrong.push(`  ${i.instance_id}: ${t} (${title.slice(0, 80)})`);
  }
  const share = (n: number) => (100 * n) / instances.length;
  const docs = counts.get("docs") ?? 0;
  appendix.push(
    `classify: ${[...counts].map(([t, n]) => `${t} ${n}`).join(", ")} of ${instances.length}`,
    ...(wrong.length ? [["code fixes classified as non-code work:", ...wrong].join("\n")] : []),
  );
  return [
    {
      section: "real",
      name: "classify: docs",
      value: share(docs),
      unit: "%",
      target: "<= 1 % (all are code fixes)",
      holds: share(docs) <= 1,
    },
    {
      section: "real",
      name: "classify: docs/test/refactor/chore",
      value: share(wrong.length),
      unit: "%",
      target: "<= 5 %",
      holds: share(wrong.length) <= 5,
    },
    { section: "real", name: "classify: bug", value: share(counts.get("bug") ?? 0), unit: "%" },
  ];
}
