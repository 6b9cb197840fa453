import path from "node:path";

/**
 * Deterministic policy for paths a generated patch may touch, enforced outside the model
 * (validation step, manual edits and the pull-request job alike). Returns why a path is
 * denied, or null when it is allowed.
 */
export function deniedPathReason(file: string): string | null {
  if (!file || file.includes("\0")) return "Empty or invalid path";
  if (path.posix.isAbsolute(file) || /^[A-Za-z]:[\\/]/.test(file) || file.includes("\\")) return "Absolute or non-POSIX path";
  const norm = path.posix.normalize(file);
  if (norm === ".." || norm.startsWith("../") || norm !== file.replace(/^\.\//, "")) return "Path escapes the repository root";
  if (norm === ".git" || norm.startsWith(".git/") || norm.includes("/.git/")) return "Git internals may not be changed";
  const lower = norm.toLowerCase();
  if (lower.startsWith(".github/workflows/")) return "CI workflow files (.github/workflows) may not be changed";
  if (lower.startsWith(".github/actions/")) return "GitHub Actions definitions (.github/actions) may not be changed";
  if (CI_CONFIGS.some((c) => lower === c || lower.startsWith(c + "/"))) return `CI configuration (${norm}) may not be changed`;
  const base = path.posix.basename(lower);
  if (base === ".env" || base.startsWith(".env.")) return "Environment files (.env*) may not be changed";
  if (SECRET_FILES.has(base) || SECRET_EXT.some((e) => base.endsWith(e))) return "Key or credential files may not be changed";
  return null;
}

const CI_CONFIGS = [
  ".gitlab-ci.yml", ".circleci", ".travis.yml", "azure-pipelines.yml", "jenkinsfile", ".buildkite",
  "bitbucket-pipelines.yml", ".drone.yml", "appveyor.yml", ".woodpecker", ".woodpecker.yml",
];
const SECRET_FILES = new Set(["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".npmrc", ".pypirc", ".netrc", "credentials", ".htpasswd"]);
const SECRET_EXT = [".pem", ".key", ".p12", ".pfx", ".keystore", ".jks"];

/** Changes that raise risk without being denied. */
export function riskyPathReason(file: string): string | null {
  const base = path.posix.basename(file.toLowerCase());
  if (LOCKFILES.has(base)) return "Lockfile changed";
  if (file.toLowerCase().startsWith(".github/")) return "Repository automation (.github) changed";
  if (/(^|\/)(dockerfile|docker-compose\.ya?ml|makefile)$/i.test(file)) return "Build or deployment file changed";
  return null;
}
const LOCKFILES = new Set(["package-lock.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock", "cargo.lock", "go.sum", "gemfile.lock", "composer.lock"]);
