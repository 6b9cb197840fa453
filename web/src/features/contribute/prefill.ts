import { parseGithubRef } from "@fixloop/contract";

const ISSUES_PAGE = /\/issues\/?$/;

/** The address `/contribute?url=` prefills with: a repository's issues page, to be completed with a number. */
export const issuesPageUrl = (fullName: string) => `https://github.com/${fullName}/issues/`;

/**
 * A `?url=` value kept for the input, or undefined: what the input itself accepts as a GitHub
 * reference (an issue, or a repository, which the preview then refuses with its own message), or
 * a repository's issues page. Anything else (another site, `javascript:`, markup) is dropped.
 * The value only ever fills the input's value: it is never rendered as HTML nor navigated to.
 */
export function prefillUrl(raw: unknown): string | undefined {
  if (typeof raw !== "string") return undefined;
  const value = raw.trim();
  if (!value || value.length > 500) return undefined;
  if (parseGithubRef(value) || isIssuesPage(value)) return value;
  return undefined;
}

/** A repository's issues page (`https://github.com/o/r/issues` or `…/issues/`): a URL still waiting for its number. */
export function isIssuesPage(raw: string): boolean {
  const value = raw.trim();
  return ISSUES_PAGE.test(value) && parseGithubRef(value.replace(ISSUES_PAGE, ""))?.type === "repository";
}
