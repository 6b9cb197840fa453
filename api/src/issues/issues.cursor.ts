import { z } from "zod";
import type { issues } from "@fixloop/db";
import { errors } from "../http/errors";

/**
 * The issue list's cursor: the position of a page's last issue, as base64url JSON. Opaque to
 * clients; it names only where a page starts, so a cursor of another user's list (or a forged
 * one) can position a page but never widen it beyond the caller's own issues.
 */
const Position = z.object({
  c: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
  i: z.string().uuid(),
});

export const encodeCursor = (p: issues.IssueListPosition): string =>
  Buffer.from(JSON.stringify({ c: p.createdAt, i: p.id })).toString("base64url");

export function decodeCursor(cursor: string): issues.IssueListPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const p = Position.safeParse(parsed);
  if (!p.success || Number.isNaN(Date.parse(p.data.c)))
    throw errors.badRequest(
      "issues.cursor_invalid",
      "cursor is not one this list gave out: pass the nextCursor of the previous page, or omit it for the first page",
    );
  return { createdAt: p.data.c, id: p.data.i };
}
