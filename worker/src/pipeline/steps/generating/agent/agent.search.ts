import type { WorkingCopy } from "./agent.workspace";
import { PathRefused, repoPath } from "./agent.paths";

const MAX_MATCHES = 50;
const MAX_LINE = 200;

/** Lines of the working copy matching a text or a regular expression: `path:line: text`, at most 50. */
export async function searchCopy(copy: WorkingCopy, args: Record<string, unknown>): Promise<string> {
  const query = args.query;
  if (typeof query !== "string" || !query) throw new PathRefused("search needs a non-empty query");
  if (query.length > 500) throw new PathRefused("The query is longer than 500 characters");
  let test: (line: string) => boolean;
  if (args.regex === true) {
    let re: RegExp;
    try {
      re = new RegExp(query);
    } catch (err) {
      throw new PathRefused(`Not a valid regular expression: ${(err as Error).message}`);
    }
    test = (line) => line.length < 10_000 && re.test(line);
  } else test = (line) => line.includes(query);
  const out: string[] = [];
  let more = false;
  for await (const file of copy.files(repoPath(args.path ?? ""))) {
    const text = await copy.read(file).catch(() => null);
    if (text === null) continue;
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? "";
      if (!test(line)) continue;
      if (out.length >= MAX_MATCHES) {
        more = true;
        break;
      }
      out.push(`${file}:${i + 1}: ${line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line}`);
    }
    if (more) break;
  }
  if (!out.length) return "No match.";
  return `${out.join("\n")}${more ? `\n(more matches left out: narrow the query or the path)` : ""}`;
}
