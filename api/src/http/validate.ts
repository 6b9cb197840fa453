import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { AppError } from "./errors";

/** zValidator whose failures become the API's 400 `{error:{code:"request.invalid",message}}`. */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      const issue = result.error.issues[0];
      const where = issue && issue.path.length ? `${issue.path.join(".")}: ` : "";
      throw new AppError(400, "request.invalid", `${where}${issue?.message ?? "Invalid request"}`);
    }
  });
}
