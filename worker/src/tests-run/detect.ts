import fs from "node:fs";
import { open, stat } from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { RepositoryTestSettings, RunSetupNetwork, SandboxBackend } from "@fixloop/contract";

/** What to run for a repository and where that came from. */
export interface TestPlan {
  command: string;
  setup: string | null;
  /** Setup may use the network (never the tests). */
  setupNetwork: boolean;
  /** `.fixloop.yml` asks for network in a repository the user does not own, and nobody granted it: the user is asked. */
  networkNotGranted?: boolean;
  /** The user chose "never" for this run: setup ran offline whatever `.fixloop.yml` or the settings say. */
  networkRefused?: boolean;
  /** Setup was granted network but the sandbox backend cannot give it safely (docker): it ran offline. */
  networkUnsupported?: boolean;
  timeoutMs: number | null;
  language: string;
  source: "settings" | ".fixloop.yml" | "detected";
  /** Which tests the command runs: the related test files (and why each), or the whole suite (and why). */
  selection?: TestSelection;
}

export interface TestSelection {
  scope: "related" | "suite";
  files: Array<{ path: string; why: string }>;
  note: string;
}

export const NO_TEST_COMMAND = "No test command found; add .fixloop.yml";

const FixloopYml = z.object({
  test: z.string().trim().min(1).optional(),
  setup: z.string().trim().min(1).optional(),
  timeout: z.number().int().min(5).max(3600).optional(),
  network: z.boolean().optional(),
});

/** Most bytes of `.fixloop.yml` parsed (as the API reads it for the preview); a larger file is refused, not parsed. */
export const MAX_FIXLOOP_YML_BYTES = 100_000;
/** Most bytes of a file read to detect the test command (package.json, pyproject.toml, setup.cfg, Makefile). */
const MAX_DETECT_BYTES = 1_000_000;

/**
 * A repository file's text, read only when it is a regular file (not a link out of the tree, not
 * a FIFO that would block the read forever) of at most `max` bytes: `{ size }` when larger, null
 * when absent or not a regular file. Its size is known before any byte is read.
 */
async function readFile(dir: string, rel: string, max: number): Promise<{ text: string } | { size: number } | null> {
  const flags = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
  const handle = await open(path.join(dir, rel), flags).catch(() => null);
  if (!handle) return null;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return null;
    if (stat.size > max) return { size: stat.size };
    return { text: await handle.readFile("utf8") };
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

const read = async (dir: string, rel: string) => {
  const r = await readFile(dir, rel, MAX_DETECT_BYTES);
  return r && "text" in r ? r.text : null;
};
const has = (dir: string, rel: string) =>
  stat(path.join(dir, rel)).then(
    () => true,
    () => false,
  );

/** npm's placeholder `test` script is not a test suite. */
const NPM_PLACEHOLDER = /no test specified/;

async function detectNode(dir: string): Promise<Pick<TestPlan, "command" | "language"> | null> {
  const raw = await read(dir, "package.json");
  if (raw === null) return null;
  let pkg: { scripts?: Record<string, unknown> };
  try {
    pkg = JSON.parse(raw) as typeof pkg;
  } catch {
    return null;
  }
  const script = pkg.scripts?.test;
  if (typeof script !== "string" || !script.trim() || NPM_PLACEHOLDER.test(script)) return null;
  const pm = (await has(dir, "pnpm-lock.yaml")) ? "pnpm" : (await has(dir, "yarn.lock")) ? "yarn" : "npm";
  return { command: `${pm} test`, language: "node" };
}

async function detectPython(dir: string): Promise<Pick<TestPlan, "command" | "language"> | null> {
  const pyproject = (await read(dir, "pyproject.toml")) ?? "";
  const setupCfg = (await read(dir, "setup.cfg")) ?? "";
  if (
    (await has(dir, "pytest.ini")) ||
    (await has(dir, "conftest.py")) ||
    pyproject.includes("[tool.pytest") ||
    setupCfg.includes("[tool:pytest]")
  ) {
    return { command: "python3 -m pytest -rA", language: "python" };
  }
  if (await has(dir, "tox.ini")) return { command: "tox", language: "python" };
  const python = pyproject || setupCfg || (await has(dir, "setup.py")) || (await has(dir, "requirements.txt"));
  if (await has(dir, "tests"))
    return python || (await has(dir, "tests/__init__.py"))
      ? { command: "python3 -m unittest discover -s tests -t . -v", language: "python" }
      : null;
  return python ? { command: "python3 -m unittest discover -v", language: "python" } : null;
}

async function detectOther(dir: string): Promise<Pick<TestPlan, "command" | "language"> | null> {
  if (await has(dir, "go.mod")) return { command: "go test -json ./...", language: "go" };
  if (await has(dir, "Cargo.toml")) return { command: "cargo test", language: "rust" };
  if (await has(dir, "pom.xml")) return { command: "mvn -q test", language: "java" };
  if ((await has(dir, "build.gradle")) || (await has(dir, "build.gradle.kts")))
    return { command: (await has(dir, "gradlew")) ? "./gradlew test" : "gradle test", language: "java" };
  const makefile = await read(dir, "Makefile");
  if (makefile && /^test:/m.test(makefile)) return { command: "make test", language: "default" };
  return null;
}

/** The language whose toolchain a command needs (the docker backend's image). */
function languageOf(command: string): string {
  if (/\b(npm|pnpm|yarn|node|npx|vitest|jest)\b/.test(command)) return "node";
  if (/\b(python3?|pytest|tox)\b/.test(command)) return "python";
  if (/\bgo\b/.test(command)) return "go";
  if (/\bcargo\b/.test(command)) return "rust";
  if (/\b(mvn|gradle|gradlew)\b/.test(command)) return "java";
  return "default";
}

/** Said in the step when `.fixloop.yml` asks for network that is not granted. */
export const NETWORK_NOT_GRANTED =
  "This repository's setup wants network (.fixloop.yml `network: true`): allow once / always / never. Nobody chose, so it was not granted and setup ran offline";

/** Said in the step when a granted networked setup ran offline because of the backend. */
export const NETWORK_UNSUPPORTED =
  "Setup ran offline: the docker sandbox backend has no egress proxy, so it never gives setup network (SANDBOX_BACKEND=bwrap does, through the proxy)";

/** The docker backend has no egress proxy: a networked setup there runs offline, and says why. */
export function planForBackend(plan: TestPlan, backend: SandboxBackend): TestPlan {
  return backend === "docker" && plan.setupNetwork ? { ...plan, setupNetwork: false, networkUnsupported: true } : plan;
}

/** Said in the step when the user chose "never" for the run. */
export const NETWORK_REFUSED = "Setup ran offline: network for this repository's setup was refused (never)";

/**
 * Whether the tree of `fullName` is the user's own, so that its `.fixloop.yml` may grant its setup
 * network by itself: only when the user's row for exactly that repository says they can push
 * (own, admin or write). A repository they can only read (an organisation's with read base
 * permission, a read-only collaborator's), no row (or only the fork's), and an imported issue's
 * upstream are written by others: there only the user grants it.
 */
export function trustedRepository(
  fullName: string,
  row: { fullName: string; canPush: boolean } | undefined,
  imported = false,
): boolean {
  return !imported && !!row && row.canPush && row.fullName.toLowerCase() === fullName.toLowerCase();
}

/**
 * The user's setting, then `.fixloop.yml`, then what the tree looks like. A plain reason when nothing applies.
 * `trusted` (`trustedRepository`): a repository the user can push to; elsewhere `.fixloop.yml` cannot grant its setup
 * network, only the user can: "once" for this run (`choice`), or "always" in the test settings. `choice`
 * "never" keeps setup offline whatever the file and the settings say.
 */
export async function detectTestPlan(
  dir: string,
  settings: RepositoryTestSettings | null,
  trusted: boolean,
  choice?: RunSetupNetwork,
): Promise<TestPlan | { reason: string }> {
  const file =
    (await readFile(dir, ".fixloop.yml", MAX_FIXLOOP_YML_BYTES)) ??
    (await readFile(dir, ".fixloop.yaml", MAX_FIXLOOP_YML_BYTES));
  let yml: z.infer<typeof FixloopYml> = {};
  if (file && "size" in file)
    return {
      reason: `Invalid .fixloop.yml: ${file.size.toLocaleString("en-US")} bytes, over the ${MAX_FIXLOOP_YML_BYTES.toLocaleString("en-US")} it may have`,
    };
  if (file) {
    let parsed: unknown;
    try {
      parsed = parseYaml(file.text);
    } catch (err) {
      return { reason: `Invalid .fixloop.yml: ${(err as Error).message.split("\n")[0]}` };
    }
    const r = FixloopYml.safeParse(parsed ?? {});
    if (!r.success)
      return {
        reason: `Invalid .fixloop.yml: ${r.error.issues.map((i) => `${i.path.join(".") || "file"}: ${i.message}`).join("; ")}`,
      };
    yml = r.data;
  }
  const detected = (await detectNode(dir)) ?? (await detectPython(dir)) ?? (await detectOther(dir));
  const command = settings?.command ?? yml.test ?? detected?.command;
  if (!command) return { reason: NO_TEST_COMMAND };
  const source = settings?.command ? "settings" : yml.test ? ".fixloop.yml" : "detected";
  const timeoutSeconds = settings?.timeoutSeconds ?? yml.timeout ?? null;
  const ymlGranted = yml.network === true && (trusted || choice === "once");
  const once = choice === "once" && yml.network === true;
  const setupNetwork = choice !== "never" && (settings ? settings.setupNetwork || once : ymlGranted);
  return {
    command,
    setup: settings?.setup ?? yml.setup ?? null,
    setupNetwork,
    ...(yml.network === true && !trusted && !setupNetwork && choice !== "never" ? { networkNotGranted: true } : {}),
    ...(choice === "never" && (yml.network === true || settings?.setupNetwork) ? { networkRefused: true } : {}),
    timeoutMs: timeoutSeconds ? timeoutSeconds * 1000 : null,
    language: source === "detected" && detected ? detected.language : languageOf(command),
    source,
  };
}
