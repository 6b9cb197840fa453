import { z } from "zod";

export const PlanIdSchema = z.enum(["FREE", "PRO", "ENTERPRISE"]);

export const CreateOrder = z.object({ planId: PlanIdSchema });
export type CreateOrder = z.infer<typeof CreateOrder>;

export const VerifyPayment = z.object({
  orderId: z.string().min(1).max(64),
  paymentId: z.string().min(1).max(64),
  signature: z.string().min(1).max(256),
  planId: PlanIdSchema,
});
export type VerifyPayment = z.infer<typeof VerifyPayment>;

const Entity = z
  .object({
    id: z.string(),
    order_id: z.string().nullish(),
    amount: z.number().optional(),
    currency: z.string().optional(),
  })
  .passthrough();

/** The part of a Razorpay webhook event we act on. */
export const WebhookEvent = z.object({
  event: z.string(),
  payload: z
    .object({
      payment: z
        .object({
          entity: Entity.extend({
            error_description: z.string().nullish(),
            status: z.string().optional(),
            amount_refunded: z.number().optional(),
            refund_status: z.string().nullish(),
          }),
        })
        .optional(),
      order: z.object({ entity: z.object({ id: z.string() }).passthrough() }).optional(),
    })
    .passthrough(),
});
export type WebhookEvent = z.infer<typeof WebhookEvent>;
