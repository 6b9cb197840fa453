import { z } from "zod";

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

type Shape = Record<string, z.ZodType>;
type Lenient<S extends Shape> = z.ZodCatch<
  z.ZodObject<{ [K in keyof S]: z.ZodCatch<z.ZodOptional<S[K]>> }, z.core.$loose>
>;

/**
 * A JSON object column: every field optional. Writes are checked strictly (a field of the wrong
 * type is refused); reads are lenient, since older rows may lack fields or hold other shapes: a
 * field that does not decode reads as absent, unknown fields are kept.
 */
export function jsonObjectColumn<S extends Shape>(column: string, shape: S) {
  const strict = z.looseObject(Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.optional()])));
  const lenient = z
    .looseObject(Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.optional().catch(undefined)])))
    .catch({}) as unknown as Lenient<S>;
  type Value = z.output<Lenient<S>>;
  return {
    read: (value: unknown): Value => lenient.parse(value ?? {}),
    /** The value as the column's JSON text; throws JsonColumnError when it does not fit. */
    write: (value: Value): string => {
      const r = strict.safeParse(value);
      if (!r.success) throw new JsonColumnError(column, r.error.issues);
      return JSON.stringify(r.data);
    },
  };
}

const Message = z.union([z.string(), z.object({ message: z.string() })]);

export const ManualEdit = z.looseObject({
  filename: z.string(),
  reason: z.string().optional(),
  revision: z.number().optional(),
  at: z.string().optional(),
});
export type ManualEdit = z.infer<typeof ManualEdit>;

/** `solutions.metadata`: what the pipeline and manual edits found about the change. */
export const solutionMetadata = jsonObjectColumn("solutions.metadata", {
  repository: z.string(),
  classification: z.object({ type: z.string().optional(), complexity: z.string().optional() }),
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
  /** Test evidence, shaped by the worker contract's `SolutionTests`. */
  tests: z.unknown(),
  manualEdits: z.array(ManualEdit),
});
export type SolutionMetadata = ReturnType<typeof solutionMetadata.read>;

/** `pull_requests.metadata`. */
export const pullRequestMetadata = jsonObjectColumn("pull_requests.metadata", {
  labels: z.array(z.string()),
  hasBreakingChanges: z.boolean(),
  generatedWithGuidelines: z.boolean(),
});
export type PullRequestMetadata = ReturnType<typeof pullRequestMetadata.read>;
