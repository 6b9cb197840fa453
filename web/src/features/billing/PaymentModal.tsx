import { useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { CheckCircle2, Loader2, XCircle } from "lucide-react";
import type { Plan } from "@fixloop/contract";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { modelsQuery } from "../../api/models.queries";
import { useAuth } from "../../auth/auth";
import { DialogHeader } from "../../ui/Dialog";
import { Button } from "../../ui/ui";
import { formatPrice, paymentsConfigQuery, subscriptionQuery, usageStatsQuery } from "./billing.queries";
import { loadCheckoutScript, type CheckoutResponse } from "./checkout";

type Step = "order" | "payment" | "success" | "error";

const FAILED_TEXT = "There was an issue processing your payment. Please try again or contact support.";
const THEME_PURPLE = "#7c3aed";

/**
 * Spec §2/§4 payment modal: order → payment (the provider's checkout) → success or error.
 * A plain overlay rather than a native modal <dialog>: the checkout draws its own overlay on the
 * page, which a top-layer modal would cover and make inert.
 */
export function PaymentModal({ plan, open, onClose }: { plan: Plan | null; open: boolean; onClose: () => void }) {
  const [step, setStep] = useState<Step>("order");
  const qc = useQueryClient();
  const { user } = useAuth();
  const config = useQuery({ ...paymentsConfigQuery(), enabled: open });
  // A late callback from an abandoned checkout must not move a newer attempt.
  const attempt = useRef(0);

  const verify = useMutation({
    mutationFn: (v: { r: CheckoutResponse; planId: Plan["id"] }) =>
      unwrap(
        api.payments["verify-payment"].$post({
          json: {
            orderId: v.r.razorpay_order_id,
            paymentId: v.r.razorpay_payment_id,
            signature: v.r.razorpay_signature,
            planId: v.planId,
          },
        }),
      ),
  });
  const createOrder = useMutation({
    mutationFn: (planId: Plan["id"]) => unwrap(api.payments["create-order"].$post({ json: { planId } })),
  });

  const fail = (id: number) => id === attempt.current && setStep("error");

  async function pay() {
    if (!plan) return;
    const id = ++attempt.current;
    let order;
    try {
      ({ order } = await createOrder.mutateAsync(plan.id));
    } catch (err) {
      toast.error(errorMessage(err, "Failed to create order"));
      return fail(id);
    }
    setStep("payment");
    const cfg = config.data ?? (await qc.fetchQuery(paymentsConfigQuery()).catch(() => undefined));
    if (!cfg || !(await loadCheckoutScript(cfg.checkoutUrl))) {
      toast.error("Failed to load Razorpay SDK");
      return fail(id);
    }
    const Checkout = window.Razorpay;
    if (!Checkout) {
      toast.error("Razorpay SDK not loaded");
      return fail(id);
    }
    setTimeout(() => {
      try {
        const checkout = new Checkout({
          key: cfg.keyId,
          amount: order.amount,
          currency: order.currency,
          name: "Fixloop",
          description: `${plan.name} plan, 1 ${plan.interval}`,
          order_id: order.id,
          prefill: { name: user?.username, email: user?.email ?? undefined },
          notes: { plan: plan.id, service: "fixloop" },
          theme: { color: THEME_PURPLE },
          method: { netbanking: true, wallet: true, emi: true, upi: true, card: true },
          retry: { enabled: true, max_count: 3 },
          remember_customer: true,
          handler: (r) => void onPaid(id, r, plan.id),
          modal: { ondismiss: () => fail(id) },
        });
        checkout.on("payment.failed", () => fail(id));
        checkout.open();
      } catch {
        toast.error("Failed to open payment modal");
        fail(id);
      }
    }, 50);
  }

  async function onPaid(id: number, r: CheckoutResponse, planId: Plan["id"]) {
    try {
      await verify.mutateAsync({ r, planId });
    } catch (err) {
      toast.error(errorMessage(err, "Payment verification failed"));
      return fail(id);
    }
    if (id !== attempt.current) return;
    setStep("success");
    await Promise.all([
      qc.invalidateQueries({ queryKey: subscriptionQuery().queryKey }),
      qc.invalidateQueries({ queryKey: modelsQuery().queryKey }),
      qc.invalidateQueries({ queryKey: usageStatsQuery().queryKey }),
    ]);
    toast.success("Payment successful! Your subscription is now active.");
  }

  function close() {
    attempt.current++;
    setStep("order");
    onClose();
  }

  if (!open || !plan) return null;
  const price = formatPrice(plan.price, plan.currency);
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/50 p-4">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="payment-title"
        className="w-full max-w-md rounded-xl bg-white p-5 text-slate-900 shadow-xl dark:bg-slate-900 dark:text-slate-100"
      >
        <DialogHeader id="payment-title" onClose={close}>
          Upgrade to {plan.name}
        </DialogHeader>
        {step === "order" && (
          <div className="space-y-4">
            <p className="text-sm text-slate-700 dark:text-slate-300">
              {plan.name}: {price} per {plan.interval}.
            </p>
            <ul className="list-disc pl-5 text-sm text-slate-700 dark:text-slate-300">
              {plan.features.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
            <Button className="w-full" busy={createOrder.isPending} onClick={() => void pay()}>
              Pay {price}
            </Button>
          </div>
        )}
        {step === "payment" && (
          <div className="space-y-4 text-center" role="status">
            <Loader2 className="mx-auto size-8 animate-spin text-violet-700" aria-hidden />
            <p className="text-sm">
              {verify.isPending ? "Verifying your payment..." : "Complete the payment in the checkout window."}
            </p>
            <Button variant="secondary" onClick={() => fail(attempt.current)}>
              Cancel if taking too long
            </Button>
          </div>
        )}
        {step === "success" && (
          <div className="space-y-4 text-center">
            <CheckCircle2 className="mx-auto size-10 text-green-600" aria-hidden />
            <p className="font-medium">Payment successful</p>
            <p className="text-sm text-slate-700 dark:text-slate-300">You are now on the {plan.name} plan.</p>
            <Button className="w-full" onClick={close}>
              Continue
            </Button>
          </div>
        )}
        {step === "error" && (
          <div className="space-y-4 text-center">
            <XCircle className="mx-auto size-10 text-red-600" aria-hidden />
            <p className="font-medium">Payment failed</p>
            <p className="text-sm text-slate-700 dark:text-slate-300">{FAILED_TEXT}</p>
            <div className="flex justify-center gap-2">
              <Button busy={createOrder.isPending} onClick={() => void pay()}>
                Try Again
              </Button>
              <Button variant="secondary" onClick={close}>
                Close
              </Button>
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
