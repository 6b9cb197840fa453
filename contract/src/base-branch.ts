import { z } from "zod";

/**
 * A branch name as git accepts it (check-ref-format, the parts a user can type): no spaces,
 * control characters, `..`, `~^:?*[\`, leading `-` or `/`, trailing `/`, `.` or `.lock`, no `@{`.
 */
export const BaseBranch = z
  .string()
  .min(1)
  .max(255)
  .regex(/^(?!-)(?!\/)(?!.*\.\.)(?!.*\/\/)(?!.*@\{)(?!.*(\/|\.|\.lock)$)[^\s~^:?*[\\]+$/, {
    message: "Not a valid branch name",
  })
  .refine((s) => ![...s].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f), {
    message: "Not a valid branch name",
  });
export type BaseBranch = z.infer<typeof BaseBranch>;

/** A run input's `baseBranch`, read leniently (absent or malformed: the repository's default branch). */
export function runBaseBranchOf(stored: unknown): string | undefined {
  const v = BaseBranch.safeParse((stored as { baseBranch?: unknown } | null)?.baseBranch);
  return v.success ? v.data : undefined;
}

/** Branches Fixloop pushes its pull requests from: `fixloop/issue-<n>` and `fixloop/issue-<n>-<slug>`. */
export const FIXLOOP_BRANCH_PREFIX = "fixloop/issue-";

/** One of Fixloop's own pull-request branches: never offered as a base to solve against. */
export const isFixloopBranch = (name: string): boolean => /^fixloop\/issue-\d+(-|$)/.test(name);
