/** Longest address kept for an issue's new place. */
const MOVED_TO_MAX = 500;

/** Only an http(s) address is kept (it is shown as a link); anything else from GitHub is dropped. */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== "string" || value.length > MOVED_TO_MAX) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}
