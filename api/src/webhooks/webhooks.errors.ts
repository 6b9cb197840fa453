import { AppError } from "../http/errors";

export const webhookErrors = {
  notConfigured: () =>
    new AppError(401, "webhook.not_configured", "GitHub webhooks are not configured (GITHUB_WEBHOOK_SECRET is empty)"),
  missingSignature: () => new AppError(401, "webhook.missing_signature", "X-Hub-Signature-256 is missing"),
  badSignature: () => new AppError(401, "webhook.bad_signature", "X-Hub-Signature-256 does not match the body"),
  missingHeader: (name: string) => new AppError(400, "webhook.missing_header", `${name} is missing`),
  invalidJson: () => new AppError(400, "webhook.invalid_json", "The body is not JSON"),
  invalidPayload: (event: string, detail: string) =>
    new AppError(400, "webhook.invalid_payload", `The ${event} payload lacks fields Fixloop reads: ${detail}`),
};
