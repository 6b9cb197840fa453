import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../deps";
import { requireSession, requireUser } from "../auth/auth.middleware";
import { errors } from "../http/errors";
import { validate } from "../http/validate";
import { apiTokens, isUuid } from "@fixloop/db";
import { createApiToken, tokenView } from "./tokens.service";

export const CreateToken = z.object({ name: z.string().trim().min(1, "Name is required").max(100) });
const IdParam = z.object({ id: z.string() });

/** Managing API tokens takes a browser session: a token answers 403 `auth.session_required`. */
export const tokensRoutes = new Hono<AppEnv>()
  .post("/tokens", requireUser, requireSession, validate("json", CreateToken), async (c) => {
    const { row, secret } = await createApiToken(c.var.deps.db, c.var.user.id, c.req.valid("json").name);
    return c.json({ token: tokenView(row), secret }, 201);
  })
  .get("/tokens", requireUser, requireSession, async (c) => {
    const rows = await apiTokens.list(c.var.deps.db, c.var.user.id);
    return c.json({ tokens: rows.map(tokenView) });
  })
  .delete("/tokens/:id", requireUser, requireSession, validate("param", IdParam), async (c) => {
    const { id } = c.req.valid("param");
    const row = isUuid(id) ? await apiTokens.revoke(c.var.deps.db, c.var.user.id, id) : undefined;
    if (!row) throw errors.notFound("Token");
    return c.json({ token: tokenView(row) });
  });
