import path from "node:path";

/**
 * Deterministic policy for paths a generated patch may touch, enforced outside the model
 * (validation step, manual edits and the pull-request job alike). Returns why a path is
 * denied, or null when it is allowed.
 *
 * Paths are compared as lower-cased segments, so `.GitHub//Workflows/`, `./.github/workflows`
 * and the directory itself all hit the same rule. A path that is a parent of a protected path
 * (a file named `.github`, or `.github/workflows` as a file) is denied too: creating, modifying
 * or deleting it would replace the protected directory.
 */
export function deniedPathReason(file: string): string | null {
  if (!file || file.includes("\0")) return "Empty or invalid path";
  // A newline in a name breaks out of the line (and code span) that shows it, in the pull request's
  // body and in a diff; direction overrides make a name read as another one to the reviewer.
  if (/\p{Cc}/u.test(file)) return "Path contains control characters (newline, tab, escape)";
  if (/[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/u.test(file))
    return "Path contains invisible or direction-changing characters";
  if (path.posix.isAbsolute(file) || /^[A-Za-z]:/.test(file) || file.startsWith("\\"))
    return "Absolute or non-POSIX path";
  const raw = file.split(/[\\/]/);
  if (raw.includes("..")) return "Path escapes the repository root";
  if (file.includes("\\")) return "Absolute or non-POSIX path";
  const segments = pathSegments(file);
  if (segments.length === 0) return "Empty or invalid path";
  if (segments.includes(".git")) return "Git internals may not be changed";
  for (const rule of PROTECTED) {
    if (overlaps(segments, rule.segments)) return rule.reason;
  }
  const given = file.replace(/^\.\//, "");
  if (given !== raw.filter((s) => s !== "" && s !== ".").join("/"))
    return "Path is not in canonical form (no empty or `.` segments, no trailing slash)";
  const base = segments[segments.length - 1] ?? "";
  if (base === ".env" || base.startsWith(".env.")) return "Environment files (.env*) may not be changed";
  if (SECRET_FILES.has(base) || SECRET_EXT.some((e) => base.endsWith(e)))
    return "Key or credential files may not be changed";
  return null;
}

/** Lower-cased path segments without empty and `.` segments (`..` is refused before this). */
export function pathSegments(file: string): string[] {
  return file
    .normalize("NFC")
    .toLowerCase()
    .split(/[\\/]+/)
    .filter((s) => s !== "" && s !== ".");
}

/** True when one path is the other or lies inside it. */
function overlaps(a: string[], b: string[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Denials that depend on the new contents, after the path itself passed. */
export function deniedContentReason(file: string, content: string): string | null {
  const base = pathSegments(file).at(-1);
  if (base === ".gitattributes" && /(^|\s)-?(filter|diff|merge)(=|\s|$)/m.test(content)) {
    return "Git attributes may not set filter, diff or merge drivers";
  }
  return null;
}

/** The path policy plus the content rules, for one change of a patch. */
export function deniedChangeReason(change: { filename: string; action: string; content: string }): string | null {
  return (
    deniedPathReason(change.filename) ??
    (change.action === "delete" ? null : deniedContentReason(change.filename, change.content))
  );
}

const rule = (p: string, reason: string) => ({ segments: p.split("/"), reason });
const PROTECTED = [
  rule(".github/workflows", "CI workflow files (.github/workflows) may not be changed"),
  rule(".github/actions", "GitHub Actions definitions (.github/actions) may not be changed"),
  rule(".github/dependabot.yml", "Dependabot configuration (.github/dependabot.yml) may not be changed"),
  rule(".github/dependabot.yaml", "Dependabot configuration (.github/dependabot.yml) may not be changed"),
  rule("codeowners", "Code owners (CODEOWNERS) may not be changed"),
  rule(".github/codeowners", "Code owners (CODEOWNERS) may not be changed"),
  rule("docs/codeowners", "Code owners (CODEOWNERS) may not be changed"),
  rule(".gitmodules", "Submodule configuration (.gitmodules) may not be changed"),
  rule(".fixloop.yml", "Fixloop's test configuration (.fixloop.yml) may not be changed"),
  rule(".fixloop.yaml", "Fixloop's test configuration (.fixloop.yml) may not be changed"),
  ...[
    ".gitlab-ci.yml",
    ".circleci",
    ".travis.yml",
    "azure-pipelines.yml",
    "jenkinsfile",
    ".buildkite",
    "bitbucket-pipelines.yml",
    ".drone.yml",
    "appveyor.yml",
    ".woodpecker",
    ".woodpecker.yml",
  ].map((c) => rule(c, `CI configuration (${c}) may not be changed`)),
];
const SECRET_FILES = new Set([
  "id_rsa",
  "id_dsa",
  "id_ecdsa",
  "id_ed25519",
  ".npmrc",
  ".pypirc",
  ".netrc",
  "credentials",
  ".htpasswd",
]);
const SECRET_EXT = [".pem", ".key", ".p12", ".pfx", ".keystore", ".jks"];

/** Changes that raise risk without being denied. */
export function riskyPathReason(file: string): string | null {
  const segments = pathSegments(file);
  const base = segments.at(-1) ?? "";
  if (LOCKFILES.has(base)) return "Lockfile changed";
  if (base === ".gitattributes") return "Git attributes changed";
  if (segments[0] === ".github") return "Repository automation (.github) changed";
  if (/^(dockerfile|docker-compose\.ya?ml|makefile)$/.test(base)) return "Build or deployment file changed";
  return null;
}
const LOCKFILES = new Set([
  "package-lock.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "poetry.lock",
  "cargo.lock",
  "go.sum",
  "gemfile.lock",
  "composer.lock",
]);
