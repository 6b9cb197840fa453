import { Hono } from "hono";
import { z } from "zod";
import { listNotifications, markNotificationRead } from "@fixloop/db";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { errors } from "../http/errors";
import { validate } from "../http/validate";
import { catchUpUsageNotice } from "../payments/payments.usage";

const NotificationParam = z.object({ id: z.uuid() });

export const notificationsRoutes = new Hono<AppEnv>()
  .get("/notifications", requireUser, async (c) => {
    await catchUpUsageNotice(c.var.deps.db, c.var.user.id);
    const rows = await listNotifications(c.var.deps.db, c.var.user.id);
    return c.json({
      notifications: rows.map((n) => ({
        id: n.id,
        type: n.kind,
        message: n.message,
        link: n.link,
        read: n.read_at !== null,
        createdAt: n.created_at.toISOString(),
      })),
    });
  })
  .post("/notifications/:id/read", requireUser, validate("param", NotificationParam), async (c) => {
    const ok = await markNotificationRead(c.var.deps.db, c.var.user.id, c.req.valid("param").id);
    if (!ok) throw errors.notFound("Notification");
    return c.json({ ok: true });
  });
