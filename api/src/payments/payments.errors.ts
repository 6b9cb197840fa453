import { AppError } from "../http/errors";

export const paymentErrors = {
  notConfigured: () => new AppError(503, "payments.not_configured", "Payments are not configured on this server"),
  alreadyFree: () => new AppError(400, "payments.already_on_plan", "You are already on the Free plan"),
  alreadyOnPlan: (name: string) => new AppError(400, "payments.already_on_plan", `You are already on the ${name} plan`),
  higherPlan: (current: string, until: string, wanted: string) =>
    new AppError(
      400,
      "payments.higher_plan_active",
      `You are on the ${current} plan until ${until}; a ${wanted} payment would not apply before then`,
    ),
  orderFailed: () => new AppError(502, "payments.order_failed", "Failed to create order"),
  orderNotFound: () => new AppError(404, "payments.order_not_found", "Order not found"),
  planMismatch: () => new AppError(400, "payments.plan_mismatch", "The plan does not match the order"),
  badSignature: () => new AppError(400, "payments.invalid_signature", "Payment verification failed"),
  badWebhookSignature: () => new AppError(400, "payments.invalid_webhook_signature", "Invalid webhook signature"),
  badWebhookBody: () => new AppError(400, "payments.invalid_webhook", "Malformed webhook payload"),
};
