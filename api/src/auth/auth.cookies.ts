import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../deps";
import { SESSION_COOKIE } from "./secrets";
import { LOGIN_CODE_TTL_MS, STATE_TTL_MS } from "./auth.credentials";

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

/** A browser binding cookie scoped to one path, good for one read (set, then taken and cleared). */
function oneTimeCookie(name: string, path: string, ttlMs: number) {
  return {
    set(c: Context<AppEnv>, binding: string) {
      setCookie(c, name, binding, { httpOnly: true, sameSite: "Lax", secure: secure(c), path, maxAge: ttlMs / 1000 });
    },
    take(c: Context<AppEnv>): string | undefined {
      const v = getCookie(c, name);
      deleteCookie(c, name, { path, secure: secure(c) });
      return v;
    },
  };
}

const stateCookie = oneTimeCookie(STATE_COOKIE, STATE_PATH, STATE_TTL_MS);
const loginCookie = oneTimeCookie(LOGIN_COOKIE, LOGIN_PATH, LOGIN_CODE_TTL_MS);

export const setStateCookie = stateCookie.set;
/** Reads and clears the browser binding: it is good for one callback only. */
export const takeStateCookie = stateCookie.take;
export const setLoginCookie = loginCookie.set;
/** Reads and clears the login binding: one exchange per sign-in. */
export const takeLoginCookie = loginCookie.take;

export function setSessionCookie(c: Context<AppEnv>, token: string, ttlDays: number) {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: secure(c),
    path: "/",
    maxAge: Math.floor(ttlDays * 86_400),
  });
}

export function clearSessionCookie(c: Context<AppEnv>) {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: secure(c) });
}
