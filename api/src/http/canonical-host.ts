import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../deps";

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** The app's pages, which a browser opens by hand or by a link (sign-in starts from one of them). */
const opened = (p: string) => !p.startsWith("/api/") && !p.startsWith("/assets/");

/**
 * Sends a browser that opened the app at another loopback name than PUBLIC_URL's (127.0.0.1 for
 * localhost, or the reverse) to the same page at PUBLIC_URL. Cookies belong to a host name: the
 * sign-in's cookies are set where PUBLIC_URL points (GitHub calls back there), so at the other name
 * sign-in failed with no word said. Only loopback names are told apart: a deployment behind a proxy
 * that rewrites Host is never redirected (no loop), nor is one without PUBLIC_URL set (null).
 */
export function canonicalLoopbackHost(publicUrl: string | undefined) {
  const canonical = new URL(publicUrl ?? "http://unset.invalid");
  const enabled = !!publicUrl && LOOPBACK.test(canonical.hostname);
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!enabled || (c.req.method !== "GET" && c.req.method !== "HEAD") || !opened(c.req.path)) return next();
    const asked = new URL(c.req.url);
    if (!LOOPBACK.test(asked.hostname) || asked.hostname.toLowerCase() === canonical.hostname.toLowerCase())
      return next();
    return c.redirect(`${canonical.origin}${asked.pathname}${asked.search}`, 302);
  });
}
