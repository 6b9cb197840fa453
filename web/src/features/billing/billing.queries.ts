import { queryOptions } from "@tanstack/react-query";
import { PLANS, type Plan } from "@fixloop/contract";
import { api } from "../../api/client";
import { ApiError, unwrap } from "../../api/errors";

const retry3 = (count: number, err: unknown) => !(err instanceof ApiError && err.status < 500) && count < 3;

/** Spec §8: the client keeps the catalog's plans as built-in defaults for when the fetch fails. */
export const FALLBACK_PLANS: Plan[] = Object.values(PLANS);

export const plansQuery = () =>
  queryOptions({
    queryKey: ["payment-plans"],
    queryFn: async () => (await unwrap(api.payments.plans.$get())).plans as Plan[],
    staleTime: 5 * 60_000,
    retry: retry3,
  });

export const paymentsConfigQuery = () =>
  queryOptions({
    queryKey: ["payments-config"],
    queryFn: () => unwrap(api.payments.config.$get()),
    staleTime: Infinity,
  });

export const subscriptionQuery = () =>
  queryOptions({ queryKey: ["subscription"], queryFn: () => unwrap(api.payments.subscription.$get()) });

export const usageStatsQuery = () =>
  queryOptions({ queryKey: ["usage-stats"], queryFn: () => unwrap(api.payments.usage.stats.$get()) });

export type SubscriptionData = Awaited<ReturnType<NonNullable<ReturnType<typeof subscriptionQuery>["queryFn"]>>>;
export type UsageStats = Awaited<ReturnType<NonNullable<ReturnType<typeof usageStatsQuery>["queryFn"]>>>;

/** Spec §8: a failed subscription read shows FREE defaults; failed usage stats show zeros with limit 10. */
export const FREE_USAGE: UsageStats = {
  totalSolutions: 0,
  monthlySolutions: 0,
  monthlyLimit: PLANS.FREE.monthlyLimit,
  lastResetDate: "",
};

export const formatPrice = (amount: number, currency: string) =>
  new Intl.NumberFormat("en", { style: "currency", currency, minimumFractionDigits: amount % 1 === 0 ? 0 : 2 }).format(
    amount,
  );

export const formatLimit = (limit: number) => (limit < 0 ? "Unlimited" : String(limit));

/**
 * What uses a solution from the plan's monthly quota: every model run that proposes a change. A
 * refinement and an Address of review comments are such runs (the prompt, the candidates, the
 * tests), as costly as a first solve, so they count like one; a run that fails gives its unit back.
 */
export const QUOTA_COUNTS =
  "Each solve uses one solution, and so does each refinement and each Address of review comments (each is a new model run). A run that fails gives its solution back.";
