import { hc } from "hono/client";
import type { AppType } from "@fixloop/api/client";

/** Typed client for the API on the same origin; the session travels as an HttpOnly cookie. */
export const api = hc<AppType>("/api", { init: { credentials: "same-origin" } });
