import { z } from "zod";

/** Which test run a `tests` event belongs to: the base tree, the patched tree, or the repair attempt. */
export const TestsPhase = z.enum(["base", "patched", "repair"]);
export type TestsPhase = z.infer<typeof TestsPhase>;

/** Live counts while a phase runs (parsed from the output so far). */
export const LiveTestCounts = z.object({
  passed: z.number().int().min(0),
  failed: z.number().int().min(0),
  errored: z.number().int().min(0),
});
export type LiveTestCounts = z.infer<typeof LiveTestCounts>;

/**
 * Characters of each phase's test output a run keeps in Postgres (its end), for a finished solve
 * opened after its live event stream expired. A phase streams at most 1 MB; the end is what matters.
 */
export const STORED_TEST_LOG_CHARS = 256 * 1024;

/** Maximum size of one `tests` event's `output` chunk, in bytes. */
export const TESTS_EVENT_OUTPUT_MAX = 16 * 1024;

/**
 * Live test output: batched about every 250 ms while a phase runs, plus one `done: true` at its end.
 * `output` is only what is new since the previous `tests` event of the same run.
 */
export const TestsEvent = z.object({
  type: z.literal("tests"),
  phase: TestsPhase,
  output: z.string(),
  counts: LiveTestCounts,
  done: z.boolean(),
  at: z.string(),
});
export type TestsEvent = z.infer<typeof TestsEvent>;

export const TestCounts = LiveTestCounts.extend({ durationMs: z.number().int().min(0) });
export type TestCounts = z.infer<typeof TestCounts>;

export const SandboxBackend = z.enum(["bwrap", "docker", "off"]);
export type SandboxBackend = z.infer<typeof SandboxBackend>;

export const TestsStatus = z.enum(["passed", "failed", "error", "skipped"]);
export type TestsStatus = z.infer<typeof TestsStatus>;

/** One file of an attempt that was replaced by the repair round. */
export const AttemptFile = z.object({
  filename: z.string(),
  action: z.enum(["create", "modify", "delete"]),
  content: z.string(),
  originalContent: z.string(),
});
export type AttemptFile = z.infer<typeof AttemptFile>;

/** Why the tests could not run to the end (status `error`). */
export const TestsCause = z.enum(["toolchain", "setup", "timeout", "cancelled", "no-exit", "workspace", "limit"]);
export type TestsCause = z.infer<typeof TestsCause>;

export const TestsAttempt = z.object({
  label: z.enum(["first", "repair"]),
  patched: TestCounts.nullable(),
  fixed: z.array(z.string()),
  regressions: z.array(z.string()),
  /** Tests that did not exist on base and pass after the patch. */
  added: z.array(z.string()).optional(),
  /** The attempt's files, kept for an attempt the solution does not carry (the page offers its diff). */
  files: z.array(AttemptFile).optional(),
});
export type TestsAttempt = z.infer<typeof TestsAttempt>;

/**
 * Evidence from running the repository's tests before and after the patch:
 * `solution.metadata.tests` and the validating step's `tests` detail.
 * `fixed`: tests failing (or erroring) on base and passing after the patch; `added`: tests new after the patch that pass.
 * `regressions`: tests passing on base and failing (or erroring, or gone missing) after it.
 */
export const SolutionTests = z.object({
  command: z.string().nullable(),
  backend: SandboxBackend,
  base: TestCounts.nullable(),
  patched: TestCounts.nullable(),
  fixed: z.array(z.string()),
  regressions: z.array(z.string()),
  logTail: z.string(),
  status: TestsStatus,
  reason: z.string().optional(),
  attempts: z.array(TestsAttempt),
  added: z.array(z.string()).optional(),
  /** Which attempt's files the solution carries (repair only when it did better). */
  kept: z.enum(["first", "repair"]).optional(),
  /** Requests of a networked setup the egress proxy refused, or whose server it could not reach (`host:port (reason)`). */
  blockedHosts: z.array(z.string()).optional(),
  /** How setup ran where the user should know (network not granted, dependency changes not installed). */
  notes: z.array(z.string()).optional(),
  /** `.fixloop.yml` asked for network nobody granted: the pages offer allow once / always / never. */
  networkWanted: z.boolean().optional(),
  /** Tests failing (or erroring) both before and after the patch. */
  preexisting: z.array(z.string()).optional(),
  /** Tests failing after the patch that did not fail before it (regressions and new failing tests). */
  failing: z.array(z.string()).optional(),
  /** Why the tests could not run to the end (status `error`); `reason` says it in a few words. */
  cause: TestsCause.optional(),
  /** No repository test relates to the change: none ran (its reproduction test still did). */
  noneRelated: z.boolean().optional(),
  /** The change touches documentation only: no test applies. */
  docsOnly: z.boolean().optional(),
  /** Which tests ran: the test files related to the change (each with why), or the whole suite (and why). */
  selection: z
    .object({
      scope: z.enum(["related", "suite"]),
      files: z.array(z.object({ path: z.string(), why: z.string() })),
      note: z.string(),
    })
    .optional(),
  /** Set when the solution's files changed after the tests ran (a manual edit): the evidence is not about them. */
  stale: z.object({ at: z.string(), by: z.enum(["edit", "refine"]) }).optional(),
  /** Set when the tests ran again on the solution's edited files (this revision), replacing stale evidence. */
  rerun: z.object({ revision: z.number().int(), at: z.string() }).optional(),
  /** A re-run of the tests on the edited files is queued or running (the evidence is stale until it ends). */
  rerunPending: z.object({ revision: z.number().int() }).optional(),
});
export type SolutionTests = z.infer<typeof SolutionTests>;

/** Per-repository override set by the user (PUT /api/github/repositories/:owner/:repo/test-settings). */
export const RepositoryTestSettings = z.object({
  /** Test command run in the sandbox; null = detect (or .fixloop.yml). */
  command: z.string().trim().min(1).max(500).nullable(),
  /** Setup command run before the tests (e.g. `npm ci`); null = none/.fixloop.yml. */
  setup: z.string().trim().min(1).max(500).nullable(),
  /** Wall-clock limit of one test run, in seconds; null = default. */
  timeoutSeconds: z.number().int().min(5).max(3600).nullable(),
  /** Setup may use the network (the test run never does). */
  setupNetwork: z.boolean(),
});
export type RepositoryTestSettings = z.infer<typeof RepositoryTestSettings>;
