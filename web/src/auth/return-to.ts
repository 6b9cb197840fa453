/**
 * Where sign-in returns to: the app page asked for while signed out. It rides in `/auth?next=` and
 * is kept in this tab's sessionStorage across the GitHub round trip. Only a path of this app is
 * ever kept or followed; anything that could leave the origin (`//host`, `/\host`, a scheme,
 * control characters browsers drop, their encoded forms) is refused.
 */
const KEY = "fixloop.returnTo";
const BASE = "http://app.invalid";
/** Not pages of the app: the API, bull-board, and sign-in itself (which would loop). */
const NOT_APP = /^\/(api|admin|auth)(\/|$)/i;
const MAX_LENGTH = 2000;

/** A backslash (browsers read it as a slash) or a control character (tabs and newlines are dropped). */
const unsafeChar = (s: string): boolean =>
  [...s].some((ch) => ch === "\\" || ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);

const decoded = (s: string): string | null => {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
};

/** `raw` as a same-origin app path (path, query, hash), or null. */
export function safeAppPath(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_LENGTH) return null;
  if (!raw.startsWith("/") || unsafeChar(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  const path = decoded(url.pathname);
  // `/%2F%2Fhost` stays a path here, but a router or proxy that decodes it would see `//host`.
  if (path === null || path.startsWith("//") || unsafeChar(path)) return null;
  if (NOT_APP.test(path)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

export function rememberReturnTo(path: string): void {
  const safe = safeAppPath(path);
  if (safe) sessionStorage.setItem(KEY, safe);
}

export const peekReturnTo = (): string | null => safeAppPath(sessionStorage.getItem(KEY));

export function forgetReturnTo(): void {
  sessionStorage.removeItem(KEY);
}

/** The kept path, once: read and removed (checked again, as storage is writable by any script of the origin). */
export function takeReturnTo(): string | null {
  const path = peekReturnTo();
  forgetReturnTo();
  return path;
}
