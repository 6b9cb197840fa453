import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../deps";
import { AppError } from "./errors";
import { withHeaders } from "./node-response";

function origin(u: string | undefined): string | null {
  if (!u) return null;
  try {
    return new URL(u).origin;
  } catch {
    return null;
  }
}

/**
 * Security headers on every response. The SPA document gets a strict CSP: scripts from self and
 * the payment checkout's host only. The checkout host is allowed on every document, since the SPA
 * reaches pricing without loading a new one (a policy per path blocked in-app navigation to it);
 * its frames may come from the checkout or the payment API host.
 */
export function securityHeaders(opts: {
  publicUrl: string;
  checkoutUrl?: string;
  paymentApiUrl?: string;
  imageHosts?: string[];
  /** Where a form may be posted besides this origin: GitHub's web host (the App manifest flow posts its manifest there). */
  formHosts?: string[];
}) {
  const https = opts.publicUrl.startsWith("https://");
  const checkout = origin(opts.checkoutUrl);
  const frames = [...new Set([checkout, checkout ? origin(opts.paymentApiUrl) : null].filter(Boolean))];
  const images = [...new Set(["'self'", "data:", "https://avatars.githubusercontent.com", ...(opts.imageHosts ?? [])])];
  const csp = [
    "default-src 'self'",
    `script-src 'self'${checkout ? ` ${checkout}` : ""}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${images.join(" ")}`,
    `connect-src 'self'${checkout ? ` ${checkout}` : ""}`,
    `frame-src ${frames.length ? frames.join(" ") : "'none'"}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    `form-action ${["'self'", ...new Set(opts.formHosts ?? [])].join(" ")}`,
    "object-src 'none'",
  ].join("; ");
  const common: [string, string][] = [
    ["X-Content-Type-Options", "nosniff"],
    ["X-Frame-Options", "DENY"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=()"],
    ...(https ? [["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] as [string, string]] : []),
    ["Content-Security-Policy", csp],
  ];
  return createMiddleware<AppEnv>(async (c, next) => {
    const path = c.req.path;
    const headers: [string, string][] = [
      ...common,
      ["Cross-Origin-Opener-Policy", path.startsWith("/api/") ? "same-origin" : "same-origin-allow-popups"],
      [
        "Referrer-Policy",
        path.startsWith("/auth/callback") || path.startsWith("/api/auth/")
          ? "no-referrer"
          : "strict-origin-when-cross-origin",
      ],
    ];
    return withHeaders(c, headers, next);
  });
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface SameOriginOptions {
  publicUrl: string;
  /** Paths that never need the check (signed webhooks). */
  exempt: RegExp[];
  /** Paths checked even without a session cookie (the login-code exchange: no login CSRF). */
  always?: RegExp[];
  /** GET paths that change state and are checked like writes. */
  reads?: RegExp[];
}

/**
 * CSRF: a state-changing request that carries the session cookie must come from our own origin
 * (besides SameSite=Lax cookies). Bearer-token clients and signed webhooks are exempt; a bearer
 * request never falls back to the cookie (see requireUser), so the exemption cannot be borrowed.
 */
export function sameOriginGuard(opts: SameOriginOptions) {
  const allowed = origin(opts.publicUrl);
  const matches = (list: RegExp[] | undefined, path: string) => (list ?? []).some((r) => r.test(path));
  return createMiddleware<AppEnv>(async (c, next) => {
    const path = c.req.path;
    const guarded = UNSAFE.has(c.req.method) || (c.req.method === "GET" && matches(opts.reads, path));
    if (guarded && !matches(opts.exempt, path)) {
      const hasCookie = /(?:^|;\s*)fixloop_session=/.test(c.req.header("cookie") ?? "");
      const bearer = /^Bearer\s/i.test(c.req.header("authorization") ?? "");
      if ((hasCookie && !bearer) || matches(opts.always, path)) {
        if (!fromOrigin(c.req.header.bind(c.req), allowed))
          throw new AppError(403, "request.cross_origin", "Cross-origin request refused");
      }
    }
    await next();
  });
}

/**
 * The Origin header when present (`Origin: null`, sent by sandboxed frames and some redirects, is
 * cross-origin), else the Referer; a browser GET with neither may still prove itself with
 * `Sec-Fetch-Site: same-origin`, which pages cannot forge.
 */
function fromOrigin(header: (name: string) => string | undefined, allowed: string | null): boolean {
  const o = header("origin");
  if (o !== undefined) return o !== "null" && origin(o) === allowed;
  const referer = header("referer");
  if (referer !== undefined) return origin(referer) === allowed;
  return header("sec-fetch-site") === "same-origin";
}
