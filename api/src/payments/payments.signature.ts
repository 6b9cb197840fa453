import crypto from "node:crypto";

const hmac = (secret: string, text: string) => crypto.createHmac("sha256", secret).update(text).digest();

/** Constant-time check of a hex HMAC-SHA256 `signature` of `text`. */
export function validHmac(secret: string, text: string, signature: string): boolean {
  if (!secret || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  return crypto.timingSafeEqual(hmac(secret, text), Buffer.from(signature, "hex"));
}

/** Razorpay checkout: HMAC-SHA256 of `order_id|payment_id` with the key secret. */
export const validCheckoutSignature = (keySecret: string, orderId: string, paymentId: string, signature: string) =>
  validHmac(keySecret, `${orderId}|${paymentId}`, signature);
