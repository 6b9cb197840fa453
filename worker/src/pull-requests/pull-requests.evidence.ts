import { bodyParts, classify, type BodyInput } from "./pull-requests.body";
import { clip, MAX_BODY_CHARS } from "./pull-requests.inert";

const HEADING = /^(#{1,6})\s+(.+)$/;
const DISCLOSURE = /^---\s*$/;

/**
 * The pull request body with its evidence (validation) section rewritten for a new revision and
 * everything else kept as it is on GitHub (a maintainer may have edited it). The section is the
 * first heading read as testing/validation, up to the next heading or the disclosure rule; a body
 * without one gets a `## Validation` section before the disclosure.
 */
export function updateEvidence(current: string, i: BodyInput, note: string): string {
  const evidence = `${note}\n${bodyParts(i).testing}`;
  const lines = current.replace(/\r\n/g, "\n").split("\n");
  const start = lines.findIndex((l) => {
    const h = HEADING.exec(l);
    return !!h && classify(h[2] ?? "") === "testing";
  });
  let out: string[];
  if (start >= 0) {
    let end = start + 1;
    while (end < lines.length && !HEADING.test(lines[end] ?? "") && !DISCLOSURE.test(lines[end] ?? "")) end++;
    out = [...lines.slice(0, start + 1), "", evidence, "", ...lines.slice(end)];
  } else {
    const rule = lines.findIndex((l) => DISCLOSURE.test(l));
    const at = rule >= 0 ? rule : lines.length;
    out = [...lines.slice(0, at), "## Validation", "", evidence, "", ...lines.slice(at)];
  }
  return clip(out.join("\n").replace(/\n{3,}/g, "\n\n"), MAX_BODY_CHARS);
}
