import { pathSegments } from "./path-policy";

/**
 * Files whose change alters what a repository installs or runs at install time: dependency
 * manifests, lockfiles, package-manager configuration and build backends. A patch touching one is
 * high risk: its setup never runs with network (the set-up base tree is reused), and a reviewer
 * must read the change before it runs anywhere else.
 */
const EXACT = new Set([
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "pnpm-workspace.yaml",
  ".yarnrc",
  ".yarnrc.yml",
  ".pnpmfile.cjs",
  "setup.py",
  "setup.cfg",
  "pyproject.toml",
  "pipfile",
  "pipfile.lock",
  "poetry.lock",
  "go.mod",
  "go.sum",
  "cargo.toml",
  "cargo.lock",
  "build.rs",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "settings.gradle",
  "settings.gradle.kts",
  "gemfile",
  "gemfile.lock",
  "composer.json",
  "composer.lock",
]);
const PATTERN = /^requirements[\w.-]*\.(txt|in)$/;

/** Build tool settings that pick a program to run or a distribution to download (compared as path tails). */
const BUILD_CONFIG = [
  [".cargo", "config"],
  [".cargo", "config.toml"],
  ["gradle-wrapper.properties"],
  ["maven-wrapper.properties"],
];
const endsWith = (segments: string[], tail: string[]) =>
  segments.length >= tail.length && tail.every((t, i) => segments[segments.length - tail.length + i] === t);

/** npm lifecycle scripts that run on install. */
export const INSTALL_HOOKS = [
  "preinstall",
  "install",
  "postinstall",
  "prepare",
  "prepublish",
  "preprepare",
  "postprepare",
];

const scriptsOf = (json: string): Record<string, unknown> => {
  try {
    const s = (JSON.parse(json) as { scripts?: unknown }).scripts;
    return s && typeof s === "object" ? (s as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** Why a change to `file` is an install-time risk, or null. */
export function installRiskReason(change: {
  filename: string;
  action: string;
  content: string;
  originalContent: string;
}): string | null {
  const base = pathSegments(change.filename).at(-1) ?? "";
  if (base === "package.json" && change.action !== "delete") {
    const before = scriptsOf(change.originalContent);
    const after = scriptsOf(change.content);
    const hooks = INSTALL_HOOKS.filter((h) => after[h] !== undefined && after[h] !== before[h]);
    if (hooks.length) return `Install-time script (${hooks.join(", ")}) added or changed: it would run during setup`;
  }
  if (base === "setup.py") return "Python build script (setup.py) changed: it runs during install";
  if (base === "binding.gyp") return "Native addon build file (binding.gyp) changed: npm builds it during install";
  if (BUILD_CONFIG.some((tail) => endsWith(pathSegments(change.filename), tail)))
    return "Build tool configuration changed: it decides what runs or is downloaded at build time";
  if (base === "build.rs") return "Cargo build script (build.rs) changed: it runs during build";
  if (EXACT.has(base) || PATTERN.test(base))
    return "Dependency manifest or lockfile changed: dependencies are not re-installed for the patch (setup runs offline)";
  return null;
}

/** Risk score a change with an install-time risk gets at least ("high", and still high after good test evidence). */
export const INSTALL_RISK_SCORE = 85;
