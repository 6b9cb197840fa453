import fs from "node:fs";
import path from "node:path";

export interface PlantedIssue {
  /** The file the fix must change. */
  target: string;
  title: string;
  body: string;
}

/**
 * Files planted in the synthetic large repository, each with an issue that describes the
 * behaviour in words: no issue names a function, class or path that only its target defines,
 * and their words (invoice, session, token, cache, ...) are the filler's words too.
 */
const PLANTED: (PlantedIssue & { code: string })[] = [
  {
    target: "src/pkg7/invoice_rounding.ts",
    code: `import { billingHelper } from "../billing/billing";\n\nexport function roundInvoiceTotal(total: number): number {\n  return Math.floor(total * 100) / 100;\n}\n`,
    title: "Invoice totals are rounded down instead of to the nearest cent",
    body: "Totals are truncated: 10.005 becomes 10.00 instead of 10.01. Customers are undercharged on every invoice with half-cent totals.",
  },
  {
    target: "src/pkg212/session_expiry.py",
    code: `from ..session.session import session_helper\n\n\ndef expires_at(created, ttl_minutes):\n    # ttl is taken as seconds\n    return created + ttl_minutes\n\n\ndef is_expired(now, created, ttl_minutes):\n    return now > expires_at(created, ttl_minutes)\n`,
    title: "Sessions expire after seconds, not minutes",
    body: "Setting the session lifetime to 30 logs users out after 30 seconds. The lifetime is documented in minutes; the expiry time seems to add it as seconds.",
  },
  {
    target: "src/pkg433/token_refresh.go",
    code: `package auth\n\nimport "time"\n\n// Refresh when the token is about to expire.\nfunc shouldRefresh(expiry time.Time, now time.Time) bool {\n\treturn now.After(expiry)\n}\n`,
    title: "Access tokens are refreshed only after they have expired",
    body: "Requests fail with 401 for a moment every hour: the client waits until the access token is already expired before refreshing it, instead of refreshing shortly before expiry.",
  },
  {
    target: "src/pkg655/ReportPaging.java",
    code: `package com.example.report;\n\nclass ReportPaging {\n  static int pageCount(int rows, int pageSize) {\n    return rows / pageSize;\n  }\n}\n`,
    title: "Last page of a report is missing",
    body: "A report with 101 rows and 50 rows per page shows two pages; the last row never appears. The number of pages is computed with an integer division that drops the remainder.",
  },
  {
    target: "src/pkg901/cache_eviction.rs",
    code: `pub struct Lru { cap: usize, items: Vec<(String, String)> }\n\nimpl Lru {\n    pub fn insert(&mut self, k: String, v: String) {\n        if self.items.len() > self.cap { self.items.pop(); }\n        self.items.insert(0, (k, v));\n    }\n}\n`,
    title: "Cache holds one entry more than its capacity",
    body: "With a capacity of 100 the cache keeps 101 entries: eviction checks for more than the capacity before inserting, so it evicts one insert too late. Memory limits are computed from the capacity.",
  },
];

/** Writes the planted files into `dir` (idempotent); returns their issues. */
export function plantIssues(dir: string): PlantedIssue[] {
  return PLANTED.map(({ code, ...issue }) => {
    const file = path.join(dir, issue.target);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, code);
    return issue;
  });
}
