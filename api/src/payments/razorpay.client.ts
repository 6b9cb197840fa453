import Razorpay from "razorpay";
import type { ApiEnv } from "../env";

export interface RazorpayOrder {
  id: string;
  amount: number;
  currency: string;
}

export interface RazorpayClient {
  createOrder(input: {
    amount: number;
    currency: string;
    receipt: string;
    notes: Record<string, string>;
  }): Promise<RazorpayOrder>;
}

type RazorpayConfig = Pick<ApiEnv, "RAZORPAY_KEY_ID" | "RAZORPAY_KEY_SECRET" | "RAZORPAY_API_URL">;

/**
 * The official SDK pointed at `RAZORPAY_API_URL`. razorpay@2 hard-codes https://api.razorpay.com
 * in its constructor and has no host option; its public `api` member wraps one axios instance
 * (`api.rq`) whose `defaults.baseURL` is axios's supported way to change a client's host. We set
 * that and check the shape at start-up, so an SDK upgrade that moves it fails loudly, not silently.
 */
export function createRazorpayClient(env: RazorpayConfig): RazorpayClient {
  const sdk = new Razorpay({ key_id: env.RAZORPAY_KEY_ID, key_secret: env.RAZORPAY_KEY_SECRET });
  const http = (sdk.api as unknown as { rq?: { defaults?: { baseURL?: string } } }).rq;
  if (!http?.defaults) throw new Error("razorpay SDK layout changed: cannot set RAZORPAY_API_URL");
  http.defaults.baseURL = env.RAZORPAY_API_URL.replace(/\/+$/, "");
  return {
    async createOrder(input) {
      const order = await sdk.orders.create({
        amount: input.amount,
        currency: input.currency,
        receipt: input.receipt,
        notes: input.notes,
      });
      return { id: order.id, amount: Number(order.amount), currency: order.currency };
    },
  };
}

const clients = new WeakMap<object, RazorpayClient>();

/** One client per app configuration. */
export function razorpayFor(env: ApiEnv): RazorpayClient {
  let client = clients.get(env);
  if (!client) {
    client = createRazorpayClient(env);
    clients.set(env, client);
  }
  return client;
}
