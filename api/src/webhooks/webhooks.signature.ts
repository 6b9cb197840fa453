import { verifyWithFallback } from "@octokit/webhooks-methods";

/**
 * Checks GitHub's `X-Hub-Signature-256` (`sha256=` and the hex HMAC-SHA256 of the raw body) against
 * each of the webhook's secrets in turn, in constant time (@octokit/webhooks-methods). Empty
 * secrets match nothing; no secret, an empty body or a malformed header is no match.
 */
export async function validGithubSignature(secrets: string[], rawBody: string, header: string): Promise<boolean> {
  const [first, ...rest] = secrets.filter((s) => s.length > 0);
  if (!first || !rawBody) return false;
  try {
    return (await verifyWithFallback(first, rawBody, header.trim(), rest)) === true;
  } catch {
    return false;
  }
}
