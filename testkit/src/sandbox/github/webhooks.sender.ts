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

/** Where one delivery goes, signed with which secret, carrying which payload. */
export interface WebhookTarget {
  url: string;
  secret: string;
}

/**
 * Per-App routing: the Apps' own hooks an event goes to (each with the payload that App sees), and
 * whether the configured target (repository webhooks and the stand-in's own App) gets it too.
 */
export type WebhookRouter = (
  event: string,
  payload: object,
) => { apps: Array<WebhookTarget & { payload: object }>; toConfigured: boolean };

/**
 * Delivers signed webhooks like GitHub's Hookshot: one POST per event with X-GitHub-Event,
 * X-GitHub-Delivery (a fresh UUID), X-Hub-Signature-256 (HMAC-SHA256 of the body with the
 * secret) and a GitHub-Hookshot user agent. Deliveries run in the background; `settle()` waits.
 */
export class WebhookSender {
  private target: WebhookTarget | null = null;
  private router: WebhookRouter | null = null;
  private appHooks: () => boolean = () => false;
  private readonly pending = new Set<Promise<void>>();
  readonly deliveries: WebhookDelivery[] = [];

  constructor(private readonly log: (line: string) => void) {}

  /** Where deliveries go; null stops them (the default: no webhook configured). */
  configure(target: { url: string; secret: string } | null): void {
    this.target = target;
  }

  /** Routes each event to the Apps whose installations it concerns, besides the configured target. */
  route(router: WebhookRouter | null, anyAppHook: () => boolean = () => router !== null): void {
    this.router = router;
    this.appHooks = router ? anyAppHook : () => false;
  }

  /** True when deliveries have a target (the configured one, or an App's own hook). */
  get active(): boolean {
    return this.target !== null || this.appHooks();
  }

  /** Signs `payload` for `event` as GitHub does. */
  static sign(secret: string, body: string): string {
    return `sha256=${crypto.createHmac("sha256", secret).update(body).digest("hex")}`;
  }

  /**
   * Sends `event` to every target it has: the Apps the router names (to their hook URL, signed with
   * their secret), and the configured target unless an App's hook already delivers to that URL
   * (one delivery per receiver, as a receiver that moved from repository webhooks to the App has).
   */
  send(event: string, payload: object): void {
    const routed = this.router?.(event, payload) ?? { apps: [], toConfigured: true };
    const targets = [...routed.apps];
    const configured = this.target;
    if (configured && routed.toConfigured && !targets.some((t) => t.url === configured.url))
      targets.push({ ...configured, payload });
    for (const t of targets) this.deliver(event, t, t.payload);
  }

  private deliver(event: string, target: WebhookTarget, payload: object): void {
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
