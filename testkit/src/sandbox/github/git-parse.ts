/** Plain types and parsers for git's own output formats. */

export interface GitIdentity {
  name: string;
  email: string;
  /** ISO 8601 date; now when absent. */
  date?: string;
}

export interface TreeEntry {
  mode: string;
  type: "blob" | "tree" | "commit";
  sha: string;
  size: number | null;
  path: string;
}

export interface ParsedCommit {
  sha: string;
  tree: string;
  parents: string[];
  author: Required<GitIdentity>;
  committer: Required<GitIdentity>;
  message: string;
}

export function parseTreeLine(line: string): TreeEntry {
  const tab = line.indexOf("\t");
  const [mode = "", type = "", sha = "", size = "-"] = line.slice(0, tab).split(/\s+/);
  return {
    mode,
    type: type as TreeEntry["type"],
    sha,
    size: size === "-" ? null : Number(size),
    path: line.slice(tab + 1),
  };
}

const IDENT = /^(.*) <(.*)> (\d+) ([+-]\d{4})$/;

function parseIdent(value: string): Required<GitIdentity> {
  const m = IDENT.exec(value);
  if (!m) return { name: value, email: "", date: new Date(0).toISOString() };
  const date = new Date(Number(m[3]) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
  return { name: m[1] ?? "", email: m[2] ?? "", date };
}

export function parseCommit(sha: string, raw: string): ParsedCommit {
  const split = raw.indexOf("\n\n");
  const header = split === -1 ? raw : raw.slice(0, split);
  const message = split === -1 ? "" : raw.slice(split + 2);
  const commit: ParsedCommit = {
    sha,
    tree: "",
    parents: [],
    author: parseIdent(""),
    committer: parseIdent(""),
    message,
  };
  for (const line of header.split("\n")) {
    if (line.startsWith(" ")) continue;
    const space = line.indexOf(" ");
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === "tree") commit.tree = value;
    else if (key === "parent") commit.parents.push(value);
    else if (key === "author") commit.author = parseIdent(value);
    else if (key === "committer") commit.committer = parseIdent(value);
  }
  return commit;
}
