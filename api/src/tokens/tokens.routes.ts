import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { errors } from "../http/errors";
import { validate } from "../http/validate";
import { createApiToken, listApiTokens, revokeApiToken, tokenView } from "./tokens.repository";

export const CreateToken = z.object({ name: z.string().trim().min(1, "Name is required").max(100) });
const IdParam = z.object({ id: z.string() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const tokensRoutes = new Hono<AppEnv>()
  .post("/tokens", requireUser, validate("json", CreateToken), async (c) => {
    const { row, secret } = await createApiToken(c.var.deps.db, c.var.user.id, c.req.valid("json").name);
    return c.json({ token: tokenView(row), secret }, 201);
  })
  .get("/tokens", requireUser, async (c) => {
    const rows = await listApiTokens(c.var.deps.db, c.var.user.id);
    return c.json({ tokens: rows.map(tokenView) });
  })
  .delete("/tokens/:id", requireUser, validate("param", IdParam), async (c) => {
    const { id } = c.req.valid("param");
    const row = UUID.test(id) ? await revokeApiToken(c.var.deps.db, c.var.user.id, id) : undefined;
    if (!row) throw errors.notFound("Token");
    return c.json({ token: tokenView(row) });
  });
