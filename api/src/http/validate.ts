import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType, z } from "zod";
import { hasLoneSurrogate } from "@fixloop/contract";
import { AppError } from "./errors";

/** Text Postgres cannot store and no client should send: NUL, or a lone surrogate (not Unicode). */
const unstorable = (s: string) => s.includes("\0") || hasLoneSurrogate(s);

/** The first path (within a parsed request value) holding a string with a NUL or a lone surrogate, if any. */
function nulPath(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === "string") return unstorable(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = nulPath(value[i], [...path, i]);
      if (p) return p;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const p = (unstorable(k) ? [...path, k] : null) ?? nulPath(v, [...path, k]);
      if (p) return p;
    }
  }
  return null;
}

/**
 * The refinement every request schema gets through `validate`: no string field may contain NUL or
 * a lone surrogate (Postgres cannot store them; "\ud800x" is no text), so such input is a 400 at
 * the schema and never reaches a query.
 */
export function rejectNul<T extends ZodType>(schema: T): T {
  return schema.superRefine((value: z.output<T>, ctx) => {
    const path = nulPath(value);
    if (path)
      ctx.addIssue({
        code: "custom",
        path,
        message: "must be valid Unicode text without NUL (\\u0000) characters or lone surrogates",
      });
  }) as T;
}

/** zValidator whose failures become the API's 400 `{error:{code:"request.invalid",message}}`. */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, rejectNul(schema), (result) => {
    if (!result.success) {
      const issue = result.error.issues[0];
      const where = issue && issue.path.length ? `${issue.path.join(".")}: ` : "";
      throw new AppError(400, "request.invalid", `${where}${issue?.message ?? "Invalid request"}`);
    }
  });
}
