import { Link } from "@tanstack/react-router";
import { Dialog } from "../../ui/Dialog";
import { buttonClass } from "../../ui/ui";

import type { UpgradeReason } from "./upgrade-reason";

export type { UpgradeReason };

const TEXT: Record<UpgradeReason, { title: string; body: string }> = {
  model_access: {
    title: "Premium subscription required",
    body: "This model is available on the Pro and Enterprise plans. Upgrade to use OpenAI and Anthropic models.",
  },
  usage_limit: {
    title: "Usage limit exceeded",
    body: "You have used all the solutions of your plan for this month. Upgrade for a larger monthly quota.",
  },
  premium_feature: { title: "Premium feature", body: "This feature is part of the Pro and Enterprise plans." },
};

export function UpgradePrompt({ reason, onClose }: { reason: UpgradeReason | null; onClose: () => void }) {
  const t = reason ? TEXT[reason] : null;
  return (
    <Dialog open={!!t} onClose={onClose} title={t?.title ?? "Upgrade"}>
      <p className="text-sm text-slate-700 dark:text-slate-300" data-reason={reason ?? ""}>
        {t?.body}
      </p>
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" onClick={onClose} className={buttonClass("secondary")}>
          Not now
        </button>
        <Link to="/pricing" className={buttonClass("primary")}>
          View plans
        </Link>
      </div>
    </Dialog>
  );
}
