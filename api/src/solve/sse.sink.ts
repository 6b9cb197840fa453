import { ServerResponse } from "node:http";
import type { Context } from "hono";

/** Where an SSE stream's frames go: the Node response itself, or a web stream when there is none. */
export interface SseSink {
  /** Resolves once the response head may be written (the middleware chain has finished with it). */
  readonly ready: Promise<void>;
  write(frame: Uint8Array): void;
  end(): void;
}

const SSE_HEADERS: Record<string, string> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};
/** @hono/node-server ignores a response carrying this header: the handler wrote it to Node itself. */
const ALREADY_SENT = "x-hono-already-sent";
/** A client this far behind is cut off; it reconnects with Last-Event-ID and misses nothing. */
const MAX_BUFFERED_BYTES = 1 << 20;

/**
 * Opens an SSE response. Under @hono/node-server frames are written straight to the Node
 * `ServerResponse` (no web-stream plumbing per connection: each write is one `res.write` of a
 * buffer that may be shared by every subscriber). Elsewhere (`app.request` in tests) a
 * ReadableStream carries the same frames. `onClose` runs once when the client goes away.
 */
export function openSseSink(c: Context, onClose: () => void): { sink: SseSink; response: Response } {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  let closed = false;
  const once = () => {
    if (closed) return;
    closed = true;
    onClose();
  };
  const opened = outgoing instanceof ServerResponse ? nodeSink(c, outgoing, once) : webSink(c, once);
  // The client left while the route was still awaiting (its close already fired): free what the stream holds.
  if (c.req.raw.signal.aborted)
    queueMicrotask(() => {
      opened.sink.end();
      once();
    });
  return opened;
}

function nodeSink(ctx: Context, res: ServerResponse, onClose: () => void): { sink: SseSink; response: Response } {
  let c: Context | null = ctx;
  let open = true;
  res.once("close", () => {
    if (!open) return;
    open = false;
    onClose();
  });
  const response = ctx.body(null, 200, { [ALREADY_SENT]: "true" });
  // node-server answers its lightweight Response on a fast path that skips the already-sent check;
  // reading `body` turns it into a full Response, which takes the checked path.
  void response.body;
  const writeHead = () => {
    // Headers that middleware (request id, security headers) put on the returned response, plus ours.
    const headers: Record<string, string> = {};
    for (const [k, v] of c?.res.headers ?? []) if (k !== ALREADY_SENT && k !== "content-length") headers[k] = v;
    c = null;
    res.writeHead(200, { ...headers, ...SSE_HEADERS });
  };
  const sink: SseSink = {
    ready: new Promise((r) => setImmediate(r)),
    write(frame) {
      if (!open) return;
      if (!res.headersSent) writeHead();
      res.write(frame);
      if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
    },
    end() {
      if (!open) return;
      open = false;
      if (!res.headersSent) writeHead();
      res.end();
    },
  };
  return { sink, response };
}

function webSink(c: Context, onClose: () => void): { sink: SseSink; response: Response } {
  let open = true;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const gone = () => {
    if (!open) return;
    open = false;
    onClose();
  };
  const body = new ReadableStream<Uint8Array>({
    start: (ctl) => void (controller = ctl),
    cancel: gone,
  });
  c.req.raw.signal.addEventListener("abort", gone, { once: true });
  const sink: SseSink = {
    ready: Promise.resolve(),
    write(frame) {
      if (open) controller?.enqueue(frame);
    },
    end() {
      if (!open) return;
      open = false;
      controller?.close();
    },
  };
  return { sink, response: c.body(body, 200, SSE_HEADERS) };
}
