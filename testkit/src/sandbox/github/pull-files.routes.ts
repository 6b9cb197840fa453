import { Hono } from "hono";
import { readableRepo } from "./access";
import type { SandboxDeps, SandboxEnv } from "./context";
import { DOCS_URL, githubErrors } from "./errors";
import { paginate } from "./http";
import { isPull } from "./pulls.payloads";

const DOC = `${DOCS_URL.pulls}#list-pull-requests-files`;

interface FileDiff {
  filename: string;
  previous?: string;
  status: "added" | "removed" | "modified" | "renamed";
  additions: number;
  deletions: number;
  patch: string;
}

/** Splits `git diff` output into one entry per file, with its own hunks as GitHub's `patch`. */
export function splitDiff(diff: string): FileDiff[] {
  const out: FileDiff[] = [];
  for (const part of diff.split(/^diff --git /m).slice(1)) {
    const lines = part.split("\n");
    const header = lines[0]?.match(/^a\/(.+) b\/(.+)$/);
    if (!header?.[1] || !header[2]) continue;
    const hunk = lines.findIndex((l) => l.startsWith("@@"));
    const body = hunk < 0 ? [] : lines.slice(hunk).filter((l, i, all) => !(i === all.length - 1 && l === ""));
    const meta = lines.slice(0, hunk < 0 ? lines.length : hunk).join("\n");
    const renamed = /^rename from /m.test(meta);
    out.push({
      filename: header[2],
      ...(renamed ? { previous: header[1] } : {}),
      status: /^new file mode/m.test(meta)
        ? "added"
        : /^deleted file mode/m.test(meta)
          ? "removed"
          : renamed
            ? "renamed"
            : "modified",
      additions: body.filter((l) => l.startsWith("+")).length,
      deletions: body.filter((l) => l.startsWith("-")).length,
      patch: body.join("\n"),
    });
  }
  return out;
}

/** GET /repos/{owner}/{repo}/pulls/{n}/files: the files a pull request changes, as GitHub lists them ("diff-entry"). */
export function pullFilesRoutes(deps: SandboxDeps) {
  const { store, git, urls } = deps;
  return new Hono<SandboxEnv>().get("/pulls/:number{[0-9]+}/files", async (c) => {
    const repo = readableRepo(deps, c, DOC);
    const pr = store.issue(repo.id, Number(c.req.param("number")));
    if (!pr || !isPull(pr)) throw githubErrors.notFound(DOC);
    const dir = git.dir(repo.owner, repo.name);
    const { baseSha, headSha } = pr.pull;
    const from = (await git.mergeBase(dir, baseSha, headSha)) ?? baseSha;
    const files = splitDiff(await git.diff(dir, from, headSha));
    const full = `${repo.owner}/${repo.name}`;
    const entries = await Promise.all(
      files.map(async (f) => {
        const at = f.status === "removed" ? from : headSha;
        const path = encodeURI(f.filename);
        return {
          sha: (await git.resolve(dir, `${at}:${f.filename}`)) ?? "",
          filename: f.filename,
          status: f.status,
          additions: f.additions,
          deletions: f.deletions,
          changes: f.additions + f.deletions,
          blob_url: `${urls.html}/${full}/blob/${at}/${path}`,
          raw_url: `${urls.html}/${full}/raw/${at}/${path}`,
          contents_url: `${urls.api}/repos/${full}/contents/${path}?ref=${at}`,
          ...(f.patch ? { patch: f.patch } : {}),
          ...(f.previous ? { previous_filename: f.previous } : {}),
        };
      }),
    );
    const page = paginate(c, entries, `${urls.api}/repositories/${repo.id}/pulls/${pr.number}/files`);
    return c.json(page.items);
  });
}
