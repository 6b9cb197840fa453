import type { Context } from "hono";
import { testsRerunKey } from "@fixloop/contract";
import type { AppEnv } from "../deps";
import { openSseSink } from "../solve/sse.sink";

const BLOCK_MS = 5_000;
/** Longest a client follows one re-run (a test run is capped well below it). */
const FOLLOW_MS = 30 * 60_000;
const frame = (event: string, data: string, id: string) => Buffer.from(`event: ${event}\ndata: ${data}\nid: ${id}\n\n`);

/**
 * Relays a tests re-run's live output as SSE: every `tests` event so far, then new ones as the
 * worker appends them, and an `end` message (`{ status }`) when the evidence was replaced (or the
 * re-run was skipped or superseded by a newer edit). Its own Redis connection, since XREAD blocks;
 * it counts against the user's live streams (`release` frees the slot when the stream ends).
 */
export function streamTestsRerun(
  c: Context<AppEnv>,
  solutionId: string,
  revision: number,
  release: () => void,
): Response {
  const key = testsRerunKey(c.var.deps.queues.prefix, solutionId, revision);
  // Offline queue on: the main client refuses commands before it is connected, and this one is new.
  const redis = c.var.deps.redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
  let open = true;
  const { sink, response } = openSseSink(c, () => {
    open = false;
    redis.disconnect();
    release();
  });
  void (async () => {
    await sink.ready;
    let last = c.req.header("last-event-id")?.match(/^\d+-\d+$/)?.[0] ?? "0-0";
    const until = Date.now() + FOLLOW_MS;
    try {
      while (open && Date.now() < until) {
        const res = await redis.xread("BLOCK", BLOCK_MS, "STREAMS", key, last);
        if (!res) {
          sink.write(Buffer.from(": heartbeat\n\n"));
          continue;
        }
        for (const [, entries] of res)
          for (const [id, fields] of entries) {
            last = id;
            if (fields[0] === "end") {
              sink.write(frame("end", JSON.stringify({ status: fields[1] ?? "" }), id));
              return;
            }
            sink.write(frame("tests", fields[1] ?? "{}", id));
          }
      }
    } catch {
      // The client went away (the connection was closed under the read) or Redis failed: the stream ends.
    } finally {
      sink.end();
      redis.disconnect();
      release();
    }
  })();
  return response;
}
