import crypto from "node:crypto";

export interface WebhookDelivery {
  id: string;
  event: string;
  /** The exact body sent (what the signature covers). */
  body: string;
  headers: Record<string, string>;
  /** The receiver's status, or 0 when it could not be reached. */
  status: number;
}

/**
 * Delivers signed webhooks like GitHub's Hookshot: one POST per event with X-GitHub-Event,
 * X-GitHub-Delivery (a fresh UUID), X-Hub-Signature-256 (HMAC-SHA256 of the body with the
 * secret) and a GitHub-Hookshot user agent. Deliveries run in the background; `settle()` waits.
 */
export class WebhookSender {
  private target: { url: string; secret: string } | null = null;
  private readonly pending = new Set<Promise<void>>();
  readonly deliveries: WebhookDelivery[] = [];

  constructor(private readonly log: (line: string) => void) {}

  /** Where deliveries go; null stops them (the default: no webhook configured). */
  configure(target: { url: string; secret: string } | null): void {
    this.target = target;
  }

  /** True when deliveries have a target. */
  get active(): boolean {
    return this.target !== null;
  }

  /** Signs `payload` for `event` as GitHub does. */
  static sign(secret: string, body: string): string {
    return `sha256=${crypto.createHmac("sha256", secret).update(body).digest("hex")}`;
  }

  send(event: string, payload: object): void {
    const target = this.target;
    if (!target) return;
    const body = JSON.stringify(payload);
    const id = crypto.randomUUID();
    const headers = {
      "content-type": "application/json",
      "user-agent": "GitHub-Hookshot/sandbox",
      "x-github-event": event,
      "x-github-delivery": id,
      "x-github-hook-id": "1",
      "x-hub-signature-256": WebhookSender.sign(target.secret, body),
    };
    const run = (async () => {
      let status = 0;
      try {
        const res = await fetch(target.url, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
        status = res.status;
        await res.body?.cancel();
      } catch (error) {
        this.log(`github sandbox: webhook ${event} to ${target.url} failed: ${String(error)}`);
      }
      this.deliveries.push({ id, event, body, headers, status });
    })();
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  /** Work that will send deliveries (e.g. reading the pushed commits first); `settle()` waits for it too. */
  track(work: Promise<void>): void {
    const run = work.catch((error: unknown) =>
      this.log(`github sandbox: webhook preparation failed: ${String(error)}`),
    );
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  /** Waits until every delivery sent so far has been answered (or failed). */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
