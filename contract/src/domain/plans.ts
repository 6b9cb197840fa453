/** The plan catalog: the one place prices, quotas and model access are defined. */
export type PlanId = "FREE" | "PRO" | "ENTERPRISE";
export type ModelProvider = "groq" | "openai" | "anthropic" | "openai-compatible";

export interface Plan {
  id: PlanId;
  name: string;
  description: string;
  /** Major currency units per interval (USD). */
  price: number;
  currency: "USD";
  interval: "month";
  features: string[];
  aiModels: ModelProvider[];
  /** Solutions per billing period; -1 is unlimited. */
  monthlyLimit: number;
  /** Solve runs of one user running at once across all workers (MAX_ACTIVE_RUNS_PER_USER overrides it). */
  maxActiveRuns: number;
}

export const PLANS: Record<PlanId, Plan> = {
  FREE: {
    id: "FREE",
    name: "Free",
    description: "For trying Fixloop on your own repositories",
    price: 0,
    currency: "USD",
    interval: "month",
    features: [
      "10 AI solutions per month",
      "Groq models",
      "Human validation workflow",
      "Refinements and manual edits",
      "Pull request creation",
    ],
    aiModels: ["groq", "openai-compatible"],
    monthlyLimit: 10,
    maxActiveRuns: 1,
  },
  PRO: {
    id: "PRO",
    name: "Pro",
    description: "For developers who solve issues every week",
    price: 15,
    currency: "USD",
    interval: "month",
    features: ["100 AI solutions per month", "Groq, OpenAI and Anthropic models", "Everything in Free"],
    aiModels: ["groq", "openai", "anthropic", "openai-compatible"],
    monthlyLimit: 100,
    maxActiveRuns: 2,
  },
  ENTERPRISE: {
    id: "ENTERPRISE",
    name: "Enterprise",
    description: "For teams that want no limits",
    price: 50,
    currency: "USD",
    interval: "month",
    features: ["Unlimited AI solutions", "All models", "API access", "Everything in Pro"],
    aiModels: ["groq", "openai", "anthropic", "openai-compatible"],
    monthlyLimit: -1,
    maxActiveRuns: 4,
  },
};

export const DEFAULT_PLAN: PlanId = "FREE";
export const FALLBACK_PERIOD_DAYS = 30;
export const USAGE_NOTIFY_RATIO = 0.8;

export function planAllowsProvider(plan: PlanId, provider: ModelProvider): boolean {
  return PLANS[plan].aiModels.includes(provider);
}

/** Plans from lowest to highest: a payment for a lower plan never replaces a higher one running. */
export const PLAN_RANK: Record<PlanId, number> = { FREE: 0, PRO: 1, ENTERPRISE: 2 };

export function isPlanId(v: unknown): v is PlanId {
  return v === "FREE" || v === "PRO" || v === "ENTERPRISE";
}

/** Codes of the refusals the web answers with an upgrade prompt, keyed by the prompt's reason. */
export const UPGRADE_CODES = { model_access: "plan.model_not_allowed", usage_limit: "usage.limit_exceeded" } as const;
