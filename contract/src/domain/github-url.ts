/**
 * Strict parser for GitHub issue references. It never fetches anything.
 * Accepts `https://github.com/o/r/issues/12` (scheme optional, www optional, trailing path,
 * query or fragment ignored) and `o/r#12`. Repository URLs parse as type "repository".
 */
export type ParsedGithubRef =
  | { type: "issue"; owner: string; repo: string; issueNumber: number }
  | { type: "repository"; owner: string; repo: string; issueNumber: null };

const OWNER = "[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}";
const REPO = "[A-Za-z0-9._-]{1,100}";
const SHORT = new RegExp(`^(${OWNER})/(${REPO})#(\\d{1,9})$`);
const URL_RE = new RegExp(
  `^(?:https?://)?(?:www\\.)?github\\.com/(${OWNER})/(${REPO})(?:/(?:(issues)/(\\d{1,9})(?:[/?#].*)?|[?#].*|(?!issues)[^/]+(?:/.*)?)?)?/?$`,
  "i",
);

export function parseGithubRef(input: string): ParsedGithubRef | null {
  const s = input.trim();
  if (!s || s.length > 500 || /\s/.test(s)) return null;
  const short = SHORT.exec(s);
  if (short) return issue(short[1], short[2], short[3]);
  const m = URL_RE.exec(s);
  if (!m) return null;
  const [, owner, rawRepo, issuesSeg, num] = m;
  const repo = rawRepo?.replace(/\.git$/i, "");
  if (!owner || !repo || repo === "." || repo === "..") return null;
  if (issuesSeg) return issue(owner, repo, num);
  return { type: "repository", owner, repo, issueNumber: null };
}

function issue(owner: string | undefined, repo: string | undefined, num: string | undefined): ParsedGithubRef | null {
  const n = Number(num);
  if (!owner || !repo || !Number.isSafeInteger(n) || n <= 0 || repo === "." || repo === "..") return null;
  return { type: "issue", owner, repo, issueNumber: n };
}
