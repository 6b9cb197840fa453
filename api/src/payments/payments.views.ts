import type { Payment, Subscription } from "@fixloop/db";
import { PLANS } from "@fixloop/contract";

export const subscriptionView = (s: Subscription, monthlyUsage: number) => ({
  plan: s.plan,
  status: s.status,
  currentPeriodStart: s.current_period_start.toISOString(),
  currentPeriodEnd: s.current_period_end.toISOString(),
  monthlyUsage,
  monthlyLimit: PLANS[s.plan].monthlyLimit,
});

export const paymentView = (p: Payment) => ({
  id: p.id,
  orderId: p.provider_order_id,
  plan: p.plan,
  amount: p.amount,
  currency: p.currency,
  status: p.status,
  failureReason: p.failure_reason,
  createdAt: p.created_at.toISOString(),
  paidAt: p.activated_at?.toISOString() ?? null,
});
