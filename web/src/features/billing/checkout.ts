/** The slice of Razorpay's checkout.js API the payment modal uses. */
export interface CheckoutResponse {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

export interface CheckoutOptions {
  key: string;
  amount: number;
  currency: string;
  name: string;
  description: string;
  order_id: string;
  handler: (r: CheckoutResponse) => void;
  prefill?: { name?: string; email?: string };
  notes?: Record<string, string>;
  theme?: { color: string };
  method?: Record<string, boolean>;
  retry?: { enabled: boolean; max_count: number };
  remember_customer?: boolean;
  modal?: { ondismiss?: () => void };
}

interface CheckoutInstance {
  open(): void;
  on(event: "payment.failed", cb: (r: { error?: { description?: string } }) => void): void;
}

declare global {
  interface Window {
    Razorpay?: new (options: CheckoutOptions) => CheckoutInstance;
  }
}

const loads = new Map<string, Promise<boolean>>();

/** Loads the checkout script once per URL, on demand; resolves false if it cannot be loaded. */
export function loadCheckoutScript(src: string): Promise<boolean> {
  if (window.Razorpay) return Promise.resolve(true);
  let p = loads.get(src);
  if (!p) {
    p = new Promise<boolean>((resolve) => {
      const s = document.createElement("script");
      s.src = src;
      s.async = true;
      s.onload = () => resolve(true);
      s.onerror = () => {
        s.remove();
        loads.delete(src);
        resolve(false);
      };
      document.body.appendChild(s);
    });
    loads.set(src, p);
  }
  return p;
}
