import fc from "fast-check";
import { sql } from "kysely";
import type { Db } from "@fixloop/db";

/** Row count and content digest of every table; equal snapshots mean nothing was written. */
export async function snapshot(db: Db): Promise<Record<string, string>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
    order by table_name`.execute(db);
  const parts = tables.rows.map(
    (t) =>
      sql`select ${t.name} as name, count(*)::int as n, coalesce(md5(string_agg(x::text, ',' order by x::text)), '') as h from ${sql.table(t.name)} x`,
  );
  const rows = await sql<{ name: string; n: number; h: string }>`${sql.join(parts, sql` union all `)}`.execute(db);
  return Object.fromEntries(rows.rows.map((r) => [r.name, `${r.n}:${r.h}`]));
}

export function changedTables(a: Record<string, string>, b: Record<string, string>): string[] {
  return Object.keys({ ...a, ...b }).filter((k) => a[k] !== b[k]);
}

/** Field names the API's schemas use, so generated objects hit real validators, not only unknown keys. */
const FIELDS = [
  "issueId",
  "modelId",
  "token",
  "name",
  "status",
  "comments",
  "modifications",
  "filename",
  "originalContent",
  "modifiedContent",
  "reason",
  "feedback",
  "refinementInstructions",
  "url",
  "owner",
  "repo",
  "issueNumber",
  "planId",
  "razorpay_order_id",
  "razorpay_payment_id",
  "razorpay_signature",
  "event",
  "payload",
  "private",
  "wait",
  "page",
  "per_page",
  "state",
  "code",
];

const edgeStrings = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "\u202e\u2066evil",
  "\u200b",
  "\ud800",
  "💥".repeat(50),
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "' or 1=1 --",
  "%00",
  "null",
  "undefined",
  "NaN",
  "-1",
  "1e309",
  "9".repeat(400),
  "a".repeat(70_000),
  "approved",
  "rejected",
  "https://github.com/octocat/todo-api/issues/1",
  "https://github.com/../issues/1",
  "00000000-0000-0000-0000-000000000000",
);
const edgeNumbers = fc.constantFrom(-1, 0, -0, 1.5, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, Number.MIN_VALUE);

export const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.string({ unit: "grapheme", maxLength: 40 }),
    fc.string({ unit: "binary", maxLength: 40 }),
    edgeStrings,
    edgeNumbers,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 10 })), tie("v"), { maxKeys: 5 }),
  ),
})).v;

/** A JSON object with known and unknown fields of any type. */
export const jsonObject = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 12 })), value, {
  maxKeys: 6,
});

export interface FuzzBody {
  contentType: string | null;
  text: string;
}

export const body: fc.Arbitrary<FuzzBody | null> = fc.oneof(
  fc.constant(null),
  jsonObject.map((o) => ({ contentType: "application/json", text: JSON.stringify(o) })),
  value.map((v) => ({ contentType: "application/json", text: JSON.stringify(v) ?? "null" })),
  fc
    .constantFrom(
      "{",
      '{"issueId":',
      "[1,2",
      "{'a':1}",
      "\u0000",
      '{"a":1}}',
      "NaN",
      "",
      "\ufeff{}",
      '{"__proto__":{"x":1}}',
    )
    .map((text) => ({ contentType: "application/json", text })),
  fc
    .tuple(
      fc.constantFrom(
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/xml",
        "application/json; charset=utf-16",
      ),
      jsonObject,
    )
    .map(([contentType, o]) => ({ contentType, text: JSON.stringify(o) })),
  jsonObject.map((o) => ({ contentType: null, text: JSON.stringify(o) })),
);

export const query = fc.dictionary(
  fc.oneof(
    fc.constantFrom("status", "wait", "private", "page", "token", "code", "state", "error"),
    fc.string({ maxLength: 8 }),
  ),
  fc.oneof(fc.string({ maxLength: 20 }), edgeStrings, edgeNumbers.map(String)),
  { maxKeys: 4 },
);

export function paramValue(realIds: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ minLength: 1, maxLength: 30 }),
    fc.uuid(),
    edgeStrings.filter((s) => s.length > 0),
    edgeNumbers.map(String),
    fc.constantFrom(...realIds),
  );
}
