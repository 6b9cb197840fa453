import { readFile } from "node:fs/promises";
import { splitIssue } from "@fixloop/worker/localize";
import type { Figure } from "../report";
import { SOURCES } from "./eval";
import { CV } from "./figures";
import { mirrorGitDir } from "./fixtures";
import type { CrossValidation, FeatureInstance } from "./fit";
import type { ModelStage } from "./model-stages.config";
import { measureStage, type StageSource } from "./model-stages";
import { stageFigures, stageTable } from "./model-stages.report";
import { mirrorTree } from "./stage-tree";

interface Instance {
  instance_id: string;
  repo: string;
  base_commit: string;
  problem_statement: string;
}

export interface BenchStagesInput {
  stages: readonly ModelStage[];
  data: readonly FeatureInstance[];
  /** The cross-validation whose held-out rankings the stages reorder; absent when too few instances. */
  cv: CrossValidation | undefined;
  /** The instances' file (ids, repositories, commits, issue text), as the eval read it. */
  instancesFile: string;
  mirrors: string;
  appendix: string[];
  log: (line: string) => void;
}

/** Each configured stage measured on the SWE-bench set's cross-validated ranking: figures, and a table each. */
export async function benchModelStages(input: BenchStagesInput): Promise<Figure[]> {
  if (input.stages.length === 0) return [];
  const names = input.stages.map((s) => s.label).join(", ");
  if (!input.cv) {
    input.appendix.push(
      `localize: ${names} configured but not measured: there is no cross-validated ranking (fewer than ${CV.k * 2} instances)`,
    );
    return [];
  }
  const instances = new Map(
    (JSON.parse(await readFile(input.instancesFile, "utf8")) as Instance[]).map((i) => [i.instance_id, i]),
  );
  const sourceOf = async (id: string): Promise<StageSource> => {
    const inst = instances.get(id);
    if (!inst) throw new Error(`${id} is not in ${input.instancesFile}`);
    const gitDir = mirrorGitDir(input.mirrors, SOURCES[inst.repo] ?? inst.repo);
    if (!gitDir) throw new Error(`no mirror of ${inst.repo}`);
    return { ...splitIssue(inst.problem_statement), tree: await mirrorTree(gitDir, inst.base_commit) };
  };
  const cvLabel = `${CV.k}-fold CV (seed ${CV.seed})`;
  const out: Figure[] = [];
  for (const stage of input.stages) {
    input.log(`localize: measuring the ${stage.label} on the ${cvLabel} ranking`);
    const r = await measureStage(stage, input.data, input.cv.weightsOf, sourceOf, input.log);
    out.push(...stageFigures(r, cvLabel));
    input.appendix.push(stageTable(r, cvLabel));
  }
  return out;
}
