import type { z } from "zod";
import type { Conn } from "@fixloop/db";
import type { Logger } from "@fixloop/runtime";
import type { AppDeps } from "../deps";

export interface WebhookContext {
  /**
   * The transaction that also stores the delivery id: a handler's writes and the replay guard
   * commit together. For a handler that works `outside` it, the pool.
   */
  db: Conn;
  logger: Logger;
  deliveryId: string;
  /** The app's dependencies (env, queues…) for handlers that start work, e.g. a label trigger. */
  deps: AppDeps;
}

/** What a handler did with a verified, new delivery. */
export type WebhookOutcome = { status: "applied"; recorded: number } | { status: "ignored"; reason: string };

/** One GitHub event type: the fields kept of its payload, and what they change. */
export interface WebhookHandler<S extends z.ZodType = z.ZodType> {
  schema: S;
  apply(ctx: WebhookContext, payload: z.output<S>): Promise<WebhookOutcome>;
  /**
   * Set for a handler that calls other services (GitHub, the queues) or the pool: it runs outside
   * the delivery's transaction, which would otherwise hold a connection for as long as those take
   * (and a burst of deliveries as large as the pool would wait on itself). The delivery is stored
   * first and forgotten when the handler fails, so a redelivery is handled again; the handler
   * guards its own repeats (e.g. the label trigger's claim).
   */
  outside?: boolean;
  /**
   * Set for the handler that moves a renamed repository itself (`repository`); before any other
   * handler, the route moves a known repository that arrives under a new name.
   */
  movesRepository?: boolean;
}

/** Declares a handler with its payload type inferred from the schema. */
export const handler = <S extends z.ZodType>(
  schema: S,
  apply: (ctx: WebhookContext, payload: z.output<S>) => Promise<WebhookOutcome>,
  o: { outside?: boolean; movesRepository?: boolean } = {},
): WebhookHandler => ({ schema, apply: apply as WebhookHandler["apply"], ...o });

export const ignored = (reason: string): WebhookOutcome => ({ status: "ignored", reason });
export const applied = (recorded: number): WebhookOutcome => ({ status: "applied", recorded });
