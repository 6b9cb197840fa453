import { createFileRoute } from "@tanstack/react-router";
import { PricingPage } from "../features/billing";
import { PublicHeader } from "../shell/PublicHeader";

export const Route = createFileRoute("/pricing")({ component: PricingRoute });

function PricingRoute() {
  return (
    <>
      <PublicHeader />
      <PricingPage />
    </>
  );
}
