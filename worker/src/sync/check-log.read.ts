import type { GithubClient } from "@fixloop/runtime";

/** Most of a job's log read: past it the read stops and keeps the tail read so far (real logs reach 100s of MB). */
export const JOB_LOG_READ_MAX_BYTES = 16 * 1024 * 1024;
/** Characters kept while reading: the end of the log, where the failure is, cut to its budget afterwards. */
const KEEP_CHARS = 64 * 1024;
const READ_TIMEOUT_MS = 20_000;

/** GitHub's hosts for job logs (the jobs API redirects to a signed URL on one of them). */
const GITHUB_LOG_HOSTS = [
  /^[a-z0-9-]+\.actions\.githubusercontent\.com$/,
  /^productionresultssa\d{1,3}\.blob\.core\.windows\.net$/,
];

/**
 * Whether the jobs API's redirect may be followed: to the API's own host (a GitHub Enterprise
 * server, the stand-in) or, for api.github.com, to GitHub's log hosts over https. Anything else is
 * a foreign host and is not fetched at all.
 */
export function logHostAllowed(location: URL, apiBaseUrl: string): boolean {
  const api = new URL(apiBaseUrl);
  if (location.username || location.password) return false;
  if (location.host === api.host && location.protocol === api.protocol) return true;
  return (
    api.hostname === "api.github.com" &&
    location.protocol === "https:" &&
    GITHUB_LOG_HOSTS.some((h) => h.test(location.hostname))
  );
}

// GitHub prefixes every log line with its time (`2024-05-01T10:00:00.1234567Z `): noise for a reader and a model.
const STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z /gm;

export type JobLogRead = { log: string } | { log: null; reason: string };

/**
 * The end of a GitHub Actions job's log. `GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs`
 * answers 302 to a short-lived signed URL; the redirect is not left to fetch: it is followed only
 * to an allowed host (`logHostAllowed`), with no Authorization (the URL is its own key), no further
 * redirect, a time limit and a byte limit, keeping only the tail as it streams.
 */
export async function readJobLogTail(
  gh: GithubClient,
  job: { owner: string; repo: string; jobId: number },
  signal?: AbortSignal,
): Promise<JobLogRead> {
  const res = await gh.request("GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs", {
    owner: job.owner,
    repo: job.repo,
    job_id: job.jobId,
    request: { redirect: "manual", parseSuccessResponseBody: false, signal },
  });
  const location = res.headers.location;
  if (res.status < 300 || res.status >= 400 || !location) return { log: null, reason: `answered ${res.status}` };
  let url: URL;
  try {
    url = new URL(location, gh.request.endpoint.DEFAULTS.baseUrl);
  } catch {
    return { log: null, reason: "redirect is not a URL" };
  }
  if (!logHostAllowed(url, gh.request.endpoint.DEFAULTS.baseUrl))
    return { log: null, reason: `redirect to a foreign host (${url.host}) not followed` };
  const timeout = AbortSignal.timeout(READ_TIMEOUT_MS);
  const got = await fetch(url, {
    redirect: "error",
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    headers: { accept: "text/plain" },
  });
  if (!got.ok || !got.body) {
    await got.body?.cancel();
    return { log: null, reason: `log host answered ${got.status}` };
  }
  return { log: (await streamTail(got.body)).replace(STAMP, "") };
}

/** The last KEEP_CHARS characters of a stream, reading at most JOB_LOG_READ_MAX_BYTES. */
async function streamTail(body: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let tail = "";
  let read = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.byteLength;
      tail = (tail + decoder.decode(value, { stream: true })).slice(-KEEP_CHARS);
      if (read >= JOB_LOG_READ_MAX_BYTES) {
        tail += `\n[log longer than ${JOB_LOG_READ_MAX_BYTES / 1024 / 1024} MB: the rest was not read]`;
        break;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return tail + decoder.decode();
}
