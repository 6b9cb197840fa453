/** How long to wait before opening a stream again after the server refused it. */
export const LIVE_RETRY_MS = 5_000;

/**
 * An EventSource that comes back after a refusal. The browser reconnects a dropped stream by
 * itself, but gives up for good on an answer that is not a stream, e.g. the 429 the API sends
 * when a user already has as many live streams open as allowed (in other tabs); this one opens
 * a new connection `retryMs` later. `setup` wires each connection's listeners; it is handed a
 * fresh EventSource each time, so per-connection state (output replayed from the start) is
 * reset there. The returned function closes it for good.
 */
export function openLiveSource(
  url: string,
  setup: (es: EventSource) => void,
  retryMs: number = LIVE_RETRY_MS,
): () => void {
  let es: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const open = () => {
    const source = new EventSource(url);
    es = source;
    setup(source);
    source.addEventListener("error", () => {
      // CONNECTING: the browser retries by itself. CLOSED after an error: it has given up.
      if (stopped || source.readyState !== EventSource.CLOSED) return;
      timer = setTimeout(open, retryMs);
    });
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    es?.close();
  };
}
