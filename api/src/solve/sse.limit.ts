import { AppError } from "../http/errors";

/**
 * Open run-event streams per user in this API process. Each stream holds a socket and a hub
 * subscription, so one user must not be able to open thousands; past the cap the answer is 429.
 */
const open = new Map<string, number>();

/** Takes a slot for `userId` or throws 429; the returned release is idempotent. */
export function acquireStreamSlot(userId: string, max: number): () => void {
  const n = open.get(userId) ?? 0;
  if (n >= max)
    throw new AppError(
      429,
      "sse.too_many_streams",
      `At most ${max} live run streams may be open at once; close one and try again`,
      { "Retry-After": "5" },
    );
  open.set(userId, n + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (open.get(userId) ?? 1) - 1;
    if (left > 0) open.set(userId, left);
    else open.delete(userId);
  };
}
