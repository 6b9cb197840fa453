/** Razorpay's error body: `{error:{code, description, source, step, reason, metadata, field?}}`. */
export class RazorpayError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 500,
    readonly description: string,
    readonly extra: { field?: string; reason?: string; source?: string; step?: string } = {},
  ) {
    super(description);
  }

  body() {
    const { field, reason = "NA", source = "NA", step = "NA" } = this.extra;
    return {
      error: {
        code: this.status === 500 ? "SERVER_ERROR" : "BAD_REQUEST_ERROR",
        description: this.description,
        source,
        step,
        reason,
        metadata: {},
        ...(field ? { field } : {}),
      },
    };
  }
}

const input = { source: "business", step: "payment_initiation", reason: "input_validation_failed" };

export const razorpayErrors = {
  invalidKey: () => new RazorpayError(401, "The api key provided is invalid"),
  authFailed: () => new RazorpayError(401, "Authentication failed"),
  field: (field: string, description: string) => new RazorpayError(400, description, { ...input, field }),
  noSuchId: () => new RazorpayError(400, "The id provided does not exist", input),
  notFound: () => new RazorpayError(404, "The requested URL was not found on the server."),
};
