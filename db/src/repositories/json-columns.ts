import { z } from "zod";
import {
  CandidateCount,
  FileChange,
  LinkedPullRequest,
  ManualEdit,
  PromptRecordSchema,
  RefineInput,
  RunTrigger,
  RepositoryTestSettings,
  StepDetail,
  storableJson,
} from "@fixloop/contract";

/** A JSON column write whose value does not have the column's shape; nothing is written. */
export class JsonColumnError extends Error {
  readonly code = "db.invalid_json";
  constructor(
    readonly column: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(`${column} has the wrong shape: ${z.prettifyError({ issues } as z.ZodError)}`);
  }
}

/** T without index signatures, deeply: a declared interface with fewer or more fields may be written. */
type Closed<T> = T extends (infer U)[]
  ? Closed<U>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Closed<T[K]> }
    : T;

/**
 * A JSON column: writes are checked strictly against `strict` (a value of the wrong shape is
 * refused, nothing is written); reads decode with `lenient`, which must never throw, since older
 * rows may hold other shapes.
 */
export function jsonColumn<W extends z.ZodType, R extends z.ZodType>(column: string, strict: W, lenient: R) {
  return {
    read: (value: unknown): z.output<R> => lenient.parse(value),
    /** The value as the column's JSON text; throws JsonColumnError when it does not fit. */
    write: (value: Closed<z.input<W>>): string => {
      const r = strict.safeParse(value);
      if (!r.success) throw new JsonColumnError(column, r.error.issues);
      // NUL and lone surrogates (escaped by JSON.stringify) are refused by jsonb: stored as U+FFFD.
      return storableJson(JSON.stringify(r.data));
    },
  };
}

type Shape = Record<string, z.ZodType>;
type Lenient<S extends Shape> = z.ZodCatch<
  z.ZodObject<{ [K in keyof S]: z.ZodCatch<z.ZodOptional<S[K]>> }, z.core.$loose>
>;

/**
 * A JSON object column: every field optional. Writes are checked strictly (a field of the wrong
 * type is refused); reads are lenient: a field that does not decode reads as absent, unknown
 * fields are kept, a missing or non-object value reads as `{}`.
 */
export function jsonObjectColumn<S extends Shape>(column: string, shape: S) {
  const strict = z.looseObject(Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.optional()])));
  const lenient = z
    .looseObject(Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.optional().catch(undefined)])))
    .catch({}) as unknown as Lenient<S>;
  const column_ = jsonColumn(column, strict, z.unknown());
  type Value = z.output<Lenient<S>>;
  return {
    read: (value: unknown): Value => lenient.parse(value ?? {}),
    write: (value: Closed<Value>): string => column_.write(value),
  };
}

/** A list read leniently: a non-list reads as empty, items that do not decode are left out. */
function lenientList<T extends z.ZodType>(item: T) {
  return z
    .array(z.unknown())
    .catch([])
    .transform((items) =>
      items.flatMap((i) => {
        const r = item.safeParse(i);
        return r.success ? [r.data as z.output<T>] : [];
      }),
    );
}

/**
 * A list of names (`issues.labels`, `issues.assignees`). Older rows may hold GitHub's objects
 * (`{ name }` for labels, `{ login }` for users): they read as their names.
 */
function namesColumn(column: string, key: "name" | "login") {
  const legacy = z.object({ [key]: z.string() }).transform((o) => o[key] as string);
  return jsonColumn(column, z.array(z.string()), lenientList(z.union([z.string(), legacy])));
}

/** `issues.labels`: label names. */
export const issueLabels = namesColumn("issues.labels", "name");
/** `issues.assignees`: GitHub logins. */
export const issueAssignees = namesColumn("issues.assignees", "login");

/** A stored changed file names its file. */
const StoredFileChange = FileChange.extend({ filename: FileChange.shape.filename.min(1) }).loose();

/** `issues.linked_pull_requests`: open pull requests on GitHub that reference the issue. */
export const issueLinkedPulls = jsonColumn(
  "issues.linked_pull_requests",
  z.array(LinkedPullRequest),
  lenientList(LinkedPullRequest),
);

/**
 * `solutions.files_changed`, `solution_revisions.files_changed`: the changed files (the contract's
 * `FileChange`). A stored file without its action or contents reads as a modification with empty contents.
 */
export const filesChanged = jsonColumn(
  "files_changed",
  z.array(StoredFileChange),
  lenientList(
    StoredFileChange.extend({
      action: FileChange.shape.action.catch("modify"),
      content: FileChange.shape.content.catch(""),
      originalContent: FileChange.shape.originalContent.catch(""),
    }),
  ),
);

const Message = z.union([z.string(), z.object({ message: z.string() })]);

/** The contract's `ManualEdit`, keeping fields it does not know. */
const StoredManualEdit = ManualEdit.loose();

/** `solutions.metadata`: what the pipeline and manual edits found about the change. */
export const solutionMetadata = jsonObjectColumn("solutions.metadata", {
  repository: z.string(),
  classification: z.object({
    type: z.string().optional(),
    complexity: z.string().optional(),
    breaking: z.boolean().optional(),
  }),
  validation: z.object({
    riskLevel: z.string().optional(),
    stats: z
      .object({
        filesChanged: z.number().optional(),
        linesAdded: z.number().optional(),
        linesRemoved: z.number().optional(),
        percentageChanged: z.number().optional(),
        newFiles: z.number().optional(),
        deletedFiles: z.number().optional(),
      })
      .optional(),
    warnings: z.array(z.string()).optional(),
    suggestions: z.array(z.string()).optional(),
  }),
  riskScore: z.number(),
  testSuggestions: z.array(z.string()),
  refinementCount: z.number(),
  advancedValidation: z.object({
    score: z.number().optional(),
    errors: z.array(Message).optional(),
    warnings: z.array(Message).optional(),
  }),
  blocked: z.array(z.object({ path: z.string(), reason: z.string() })),
  model: z.object({ id: z.string(), name: z.string(), provider: z.string() }),
  baseCommitSha: z.string(),
  defaultBranch: z.string(),
  /** Test evidence, shaped by the contract's `SolutionTests` (decoded where it is shown). */
  tests: z.unknown(),
  /** Every candidate with its evidence and rank, shaped by the contract's `SolutionCandidates` (decoded where shown). */
  candidates: z.unknown(),
  /** The reproduction test, shaped by the contract's `SolutionReproduction`. */
  reproduction: z.unknown(),
  /** Set when no candidate had positive evidence, shaped by the contract's `SolutionUnverified`. */
  unverified: z.unknown(),
  manualEdits: z.array(StoredManualEdit),
});
export type SolutionMetadata = ReturnType<typeof solutionMetadata.read>;

/** `pull_requests.metadata`. */
export const pullRequestMetadata = jsonObjectColumn("pull_requests.metadata", {
  labels: z.array(z.string()),
  hasBreakingChanges: z.boolean(),
  generatedWithGuidelines: z.boolean(),
  /** Opened (or still) as a draft on GitHub. */
  draft: z.boolean(),
  /** Meant as a draft, but the repository has no drafts: open as a regular one whose body says it is not ready. */
  draftRefused: z.boolean(),
});
export type PullRequestMetadata = ReturnType<typeof pullRequestMetadata.read>;

/**
 * `solve_runs.input`: for a refine run, the refinement requests so far (newest last) and the hand edits to keep;
 * `setupNetwork`: the user's choice for this run when `.fixloop.yml` asks for network it cannot grant itself.
 */
export const runInput = jsonObjectColumn("solve_runs.input", {
  ...RefineInput.shape,
  manualEdits: z.array(StoredManualEdit),
  setupNetwork: z.enum(["once", "never"]),
  /** How many candidate patches the run generates (1–4). */
  candidates: CandidateCount,
  /** What started the run when no one pressed Solve: `label` (the repository's solve label). */
  trigger: RunTrigger,
  /** The label that started a `label` run, as the repository's setting spells it. */
  triggerLabel: z.string().max(50),
  /** Who added that label, as the webhook named them (absent: the repository sync found it). */
  triggerSender: z.string().max(100),
});
export type RunInput = ReturnType<typeof runInput.read>;

/** The contract's `StepDetail` lists and score; the step-specific parts are kept as they come and decoded where shown. */
const { files, info, warnings } = StepDetail.shape;
const score = z.number().optional();

/** `run_steps.detail`: what a step shows (the contract's `StepDetail`: files, info lines, warnings, score, step-specific parts). */
export const stepDetail = jsonColumn(
  "run_steps.detail",
  z.looseObject({ files, info, warnings, score }),
  z
    .looseObject({
      files: files.catch([]),
      info: info.catch([]),
      warnings: warnings.catch([]),
      score: score.catch(undefined),
    })
    .catch({ files: [], info: [], warnings: [] }),
);

/** A JSON object of any fields (not a list, not null). */
const AnyObject = z.custom<object>(
  (v) => typeof v === "object" && v !== null && !Array.isArray(v),
  "Expected an object",
);

/** `run_steps.output`: a step's full result, an object shaped by the worker contract's step outputs; anything else reads as null. */
export const stepOutput = jsonColumn("run_steps.output", AnyObject, AnyObject.nullable().catch(null));

/** `run_steps.prompt`: what the model was sent (the contract's `PromptRecord`). */
export const stepPrompt = jsonObjectColumn("run_steps.prompt", PromptRecordSchema.shape);

/** `webhook_events.payload`: the provider's event, an object, kept as received. */
export const webhookPayload = jsonColumn("webhook_events.payload", AnyObject, AnyObject.nullable().catch(null));

/**
 * `repositories.test_settings`: the user's test command override (the contract's
 * `RepositoryTestSettings`; SQL null: detect). A stored value of another shape reads as null.
 */
export const repositoryTestSettings = jsonColumn(
  "repositories.test_settings",
  RepositoryTestSettings,
  RepositoryTestSettings.nullable().catch(null),
);
