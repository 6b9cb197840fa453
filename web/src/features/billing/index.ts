export { PricingPage } from "./PricingPage";
export { PaymentModal } from "./PaymentModal";
export { UsageTab } from "./UsageTab";
export { BillingTab } from "./BillingTab";
export { subscriptionQuery, usageStatsQuery, plansQuery } from "./billing.queries";
