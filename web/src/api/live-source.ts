/** How long to wait before opening a stream again after the server refused it; doubled per refusal in a row. */
export const LIVE_RETRY_MS = 5_000;
/** The longest wait between two tries (a stream refused for good, e.g. a 401, is tried this often). */
export const LIVE_RETRY_MAX_MS = 60_000;

/**
 * An EventSource that comes back after a refusal. The browser reconnects a dropped stream by
 * itself, but gives up for good on an answer that is not a stream, e.g. the 429 the API sends
 * when a user already has as many live streams open as allowed (in other tabs); this one opens
 * a new connection `retryMs` later, then twice as long after each refusal in a row (up to
 * LIVE_RETRY_MAX_MS), and from `retryMs` again once a connection opened. `setup` wires each
 * connection's listeners; it is handed a fresh EventSource each time, so per-connection state
 * (output replayed from the start) is reset there. The returned function closes it for good.
 */
export function openLiveSource(
  url: string,
  setup: (es: EventSource) => void,
  retryMs: number = LIVE_RETRY_MS,
): () => void {
  let es: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let wait = retryMs;
  const open = () => {
    const source = new EventSource(url);
    es = source;
    setup(source);
    source.addEventListener("open", () => (wait = retryMs));
    source.addEventListener("error", () => {
      // CONNECTING: the browser retries by itself. CLOSED after an error: it has given up.
      if (stopped || source.readyState !== EventSource.CLOSED) return;
      timer = setTimeout(open, wait);
      wait = Math.min(wait * 2, LIVE_RETRY_MAX_MS);
    });
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    es?.close();
  };
}
