/**
 * A list endpoint of the REST client (e.g. `gh.rest.pulls.listReviews`) that sends `etag` as
 * If-None-Match on its first request only, for `gh.paginate.iterator`. Octokit's paginate repeats
 * a request's headers on every page, but an ETag belongs to one page: a later page whose content
 * equals the first page's last read (its items moved down a page) would answer 304, which reads
 * as "nothing changed" and throws the pages already read away.
 */
export function conditionalOnFirstPage<E extends { endpoint: unknown }>(
  endpoint: E,
  etag: string | null | undefined,
): E {
  const send = endpoint as unknown as (options: { headers?: Record<string, unknown> }) => Promise<unknown>;
  let first = true;
  const request = (options: { headers?: Record<string, unknown> }) => {
    const { "if-none-match": _ignored, ...headers } = options.headers ?? {};
    const conditional = first && etag ? { ...headers, "if-none-match": etag } : headers;
    first = false;
    return send({ ...options, headers: conditional });
  };
  return Object.assign(request, { endpoint: endpoint.endpoint }) as unknown as E;
}
