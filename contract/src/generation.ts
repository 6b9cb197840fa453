import { z } from "zod";

/** One search/replace edit: `search` must occur exactly once in the current file. */
export const FileEdit = z.object({ search: z.string().min(1), replace: z.string() });

export const GeneratedFile = z.object({
  filename: z.string().min(1),
  action: z.enum(["create", "modify", "delete"]),
  edits: z.array(FileEdit).default([]),
  /** Full contents for `create` (and optionally for a whole-file rewrite). */
  content: z.string().optional(),
});

/** The structured answer every model provider must return through the `submit_solution` tool. */
export const GeneratedSolution = z.object({
  analysis: z.string().min(1),
  proposedSolution: z.string().min(1),
  confidence: z.number().min(0).max(100),
  files: z.array(GeneratedFile).min(1),
});
export type GeneratedSolution = z.infer<typeof GeneratedSolution>;

export const SUBMIT_SOLUTION_TOOL = "submit_solution";

/** JSON schema of GeneratedSolution for provider tool definitions. */
export const GENERATED_SOLUTION_JSON_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["analysis", "proposedSolution", "confidence", "files"],
  properties: {
    analysis: { type: "string", description: "Root cause analysis of the issue." },
    proposedSolution: { type: "string", description: "What the change does and why." },
    confidence: { type: "number", minimum: 0, maximum: 100 },
    files: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["filename", "action", "edits"],
        properties: {
          filename: { type: "string" },
          action: { type: "string", enum: ["create", "modify", "delete"] },
          edits: {
            type: "array",
            items: {
              type: "object",
              additionalProperties: false,
              required: ["search", "replace"],
              properties: { search: { type: "string" }, replace: { type: "string" } },
            },
          },
          content: { type: "string" },
        },
      },
    },
  },
} as const;

/** A forced tool call: its name, what it is for, and the JSON schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  schema: { type: "object"; required: readonly string[]; properties: Record<string, unknown> };
}

/** The files a model picks to edit from a ranked list, each with why (the model-assisted rerank). */
export const ChosenFiles = z.object({
  files: z.array(z.object({ path: z.string().min(1), reason: z.string().default("") })).max(50),
});
export type ChosenFiles = z.infer<typeof ChosenFiles>;

export const CHOOSE_FILES_TOOL = "choose_files";

export const CHOOSE_FILES_JSON_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["files"],
  properties: {
    files: {
      type: "array",
      description: "The files the fix must edit, most likely first.",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["path", "reason"],
        properties: {
          path: { type: "string", description: "A path exactly as listed." },
          reason: { type: "string", description: "Why this file must change, in one sentence." },
        },
      },
    },
  },
} as const;
