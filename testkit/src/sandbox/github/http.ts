import type { Context } from "hono";
import type { SandboxEnv } from "./context";
import { DOCS_URL, GithubError } from "./errors";

type Ctx = Context<SandboxEnv>;

/** Parses a JSON object body; GitHub answers 400 "Problems parsing JSON" otherwise. */
export async function readJson(c: Ctx): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // falls through to the GitHub error below
  }
  throw new GithubError(400, "Problems parsing JSON", "https://docs.github.com/rest");
}

export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export interface Page<T> {
  items: T[];
  page: number;
  perPage: number;
}

/** Slices `all` by `page`/`per_page` (default 30, max 100) and sets GitHub's Link header. */
export function paginate<T>(c: Ctx, all: T[], linkBase: string): Page<T> {
  const perPage = Math.min(100, Math.max(1, Number(c.req.query("per_page") ?? 30) || 30));
  const page = Math.max(1, Number(c.req.query("page") ?? 1) || 1);
  const last = Math.max(1, Math.ceil(all.length / perPage));
  const url = new URL(linkBase);
  for (const [k, v] of new URL(c.req.url).searchParams) if (k !== "page") url.searchParams.set(k, v);
  const at = (p: number) => {
    url.searchParams.set("page", String(p));
    return `<${url.toString()}>`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`${at(Math.min(page - 1, last))}; rel="prev"`);
  if (page < last) links.push(`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`);
  if (page > 1) links.push(`${at(1)}; rel="first"`);
  if (links.length > 0) c.header("Link", links.join(", "));
  return { items: all.slice((page - 1) * perPage, page * perPage), page, perPage };
}

/** GitHub's 301 for something that lives elsewhere now (a transferred issue, a renamed repository). */
export function movedPermanently(c: Ctx, location: string): Response {
  return c.json({ message: "Moved Permanently", url: location, documentation_url: DOCS_URL.redirects }, 301, {
    location,
  });
}
