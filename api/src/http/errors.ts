import type { ContentfulStatusCode } from "hono/utils/http-status";

/** An error the API answers as `{error:{code,message}}` with `status`. Codes are dotted: `feature.reason`. */
export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const createError = (status: ContentfulStatusCode, code: string, message: string) =>
  new AppError(status, code, message);

export const errors = {
  unauthorized: () => new AppError(401, "auth.unauthorized", "Authentication required"),
  notFound: (what: string) => new AppError(404, `${what.toLowerCase()}.not_found`, `${what} not found`),
  badRequest: (code: string, message: string) => new AppError(400, code, message),
  validation: (message: string) => new AppError(400, "request.invalid", message),
};
