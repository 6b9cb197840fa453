import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../deps";
import { SESSION_COOKIE } from "./secrets";
import { LOGIN_CODE_TTL_MS, STATE_TTL_MS } from "./auth.repository";

export const STATE_COOKIE = "fixloop_oauth";
const STATE_PATH = "/api/auth/github";
/** Carries the OAuth state's browser binding on to the login-code exchange. */
export const LOGIN_COOKIE = "fixloop_login";
const LOGIN_PATH = "/api/auth/session";

export function publicUrl(c: Context<AppEnv>): string {
  return (c.var.deps.env.PUBLIC_URL ?? new URL(c.req.url).origin).replace(/\/+$/, "");
}

function secure(c: Context<AppEnv>): boolean {
  return c.var.deps.env.COOKIE_SECURE ?? publicUrl(c).startsWith("https:");
}

export function setStateCookie(c: Context<AppEnv>, binding: string) {
  setCookie(c, STATE_COOKIE, binding, { httpOnly: true, sameSite: "Lax", secure: secure(c), path: STATE_PATH, maxAge: STATE_TTL_MS / 1000 });
}

/** Reads and clears the browser binding: it is good for one callback only. */
export function takeStateCookie(c: Context<AppEnv>): string | undefined {
  const v = getCookie(c, STATE_COOKIE);
  deleteCookie(c, STATE_COOKIE, { path: STATE_PATH, secure: secure(c) });
  return v;
}

export function setLoginCookie(c: Context<AppEnv>, binding: string) {
  setCookie(c, LOGIN_COOKIE, binding, { httpOnly: true, sameSite: "Lax", secure: secure(c), path: LOGIN_PATH, maxAge: LOGIN_CODE_TTL_MS / 1000 });
}

/** Reads and clears the login binding: one exchange per sign-in. */
export function takeLoginCookie(c: Context<AppEnv>): string | undefined {
  const v = getCookie(c, LOGIN_COOKIE);
  deleteCookie(c, LOGIN_COOKIE, { path: LOGIN_PATH, secure: secure(c) });
  return v;
}

export function setSessionCookie(c: Context<AppEnv>, token: string, ttlDays: number) {
  setCookie(c, SESSION_COOKIE, token, { httpOnly: true, sameSite: "Lax", secure: secure(c), path: "/", maxAge: Math.floor(ttlDays * 86_400) });
}

export function clearSessionCookie(c: Context<AppEnv>) {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: secure(c) });
}
