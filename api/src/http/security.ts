import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../deps";
import { AppError } from "./errors";

/** Pages whose document may load the payment provider's checkout script and frames. */
const PAYMENT_PAGES = [/^\/pricing\/?$/, /^\/profile-settings\/?$/];

function origin(u: string | undefined): string | null {
  if (!u) return null;
  try {
    return new URL(u).origin;
  } catch {
    return null;
  }
}

/**
 * Security headers on every response. The SPA document gets a strict CSP: scripts from self only,
 * plus the checkout host on the pages that take payments.
 */
export function securityHeaders(opts: { publicUrl: string; checkoutUrl?: string; imageHosts?: string[] }) {
  const https = opts.publicUrl.startsWith("https://");
  const checkout = origin(opts.checkoutUrl);
  const images = ["'self'", "data:", "https://avatars.githubusercontent.com", ...(opts.imageHosts ?? [])].join(" ");
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const h = c.res.headers;
    h.set("X-Content-Type-Options", "nosniff");
    h.set("X-Frame-Options", "DENY");
    h.set("Cross-Origin-Opener-Policy", c.req.path.startsWith("/api/") ? "same-origin" : "same-origin-allow-popups");
    h.set("Referrer-Policy", c.req.path.startsWith("/auth/callback") || c.req.path.startsWith("/api/auth/") ? "no-referrer" : "strict-origin-when-cross-origin");
    h.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    if (https) h.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    const isPayment = checkout && PAYMENT_PAGES.some((r) => r.test(c.req.path));
    const script = ["'self'", isPayment ? checkout : null].filter(Boolean).join(" ");
    const frame = isPayment ? checkout : "'none'";
    h.set(
      "Content-Security-Policy",
      [
        "default-src 'self'",
        `script-src ${script}`,
        "style-src 'self' 'unsafe-inline'",
        `img-src ${images}`,
        `connect-src 'self'${isPayment ? ` ${checkout}` : ""}`,
        `frame-src ${frame}`,
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "object-src 'none'",
      ].join("; "),
    );
  });
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * CSRF: a state-changing request that carries the session cookie must come from our own origin
 * (besides SameSite=Lax cookies). Bearer-token clients and signed webhooks are exempt.
 */
export function sameOriginGuard(opts: { publicUrl: string; exempt: RegExp[] }) {
  const allowed = origin(opts.publicUrl);
  return createMiddleware<AppEnv>(async (c, next) => {
    if (UNSAFE.has(c.req.method) && !opts.exempt.some((r) => r.test(c.req.path))) {
      const hasCookie = /(?:^|;\s*)fixloop_session=/.test(c.req.header("cookie") ?? "");
      const bearer = /^Bearer\s/i.test(c.req.header("authorization") ?? "");
      if (hasCookie && !bearer) {
        const from = origin(c.req.header("origin")) ?? origin(c.req.header("referer"));
        if (from !== allowed) throw new AppError(403, "request.cross_origin", "Cross-origin request refused");
      }
    }
    await next();
  });
}
