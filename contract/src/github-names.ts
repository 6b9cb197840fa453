import { z } from "zod";

/**
 * An account login by GitHub's rules: letters, digits and hyphens, starting with a letter or digit
 * (accounts from before today's rules may have doubled or trailing hyphens), at most 39 characters;
 * a managed user (Enterprise Managed Users) ends in `_` and the enterprise's short code.
 */
export const GITHUB_LOGIN = /^(?=.{1,39}$)[A-Za-z0-9][A-Za-z0-9-]*(?:_[A-Za-z0-9]+)?$/;

/** A repository name by GitHub's rules: letters, digits, `.`, `-` and `_`, at most 100, never `.` or `..`. */
export const GITHUB_REPO_NAME = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}$/;

/** An account login (see GITHUB_LOGIN), refused with `message`. */
export const githubLogin = (message = "Invalid repository owner") => z.string().regex(GITHUB_LOGIN, message);

/** A repository name (see GITHUB_REPO_NAME), refused with `message`. */
export const githubRepoName = (message = "Invalid repository name") => z.string().regex(GITHUB_REPO_NAME, message);
