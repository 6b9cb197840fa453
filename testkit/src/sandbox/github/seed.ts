import type { SeededFix, SeedRepo, SeedUser } from "./seed/seed.types";
import { MARKDOWN_LINT, MARKDOWN_LINT_FIXES } from "./seed/markdown-lint.seed";
import { POLICY_OWNER } from "./seed/policies.seed";
import { SECRET_NOTES, SECRET_NOTES_FIXES } from "./seed/secret-notes.seed";
import { TODO_API, TODO_API_FIXES } from "./seed/todo-api.seed";
import { URL_SHORTENER, URL_SHORTENER_FIXES } from "./seed/url-shortener.seed";
import { WEATHER_CLI, WEATHER_CLI_FIXES } from "./seed/weather-cli.seed";

export { seedFiles, repairFiles, DEFAULT_LABELS } from "./seed/seed.types";
export type { SeedClosedPull, SeedCommit, SeedIssue, SeededFix, SeedPull, SeedRepo, SeedUser } from "./seed/seed.types";
export { POLICY_REPOS } from "./seed/policies.seed";

export const SEED_USERS: SeedUser[] = [
  {
    id: 583231,
    login: "octocat",
    name: "The Octocat",
    email: "octocat@github.com",
    bio: "Mona's friend. Ships small, well-tested tools.",
    company: "@github",
    location: "San Francisco",
    createdAt: "2011-01-25T18:44:36Z",
  },
  {
    id: 480938,
    login: "hubot",
    name: "Hubot",
    email: "hubot@github.com",
    bio: "I automate the boring parts.",
    company: null,
    location: "The Internet",
    createdAt: "2010-11-15T03:32:03Z",
  },
  {
    id: 2,
    login: "monalisa",
    name: "Mona Lisa Octocat",
    email: "monalisa@github.com",
    bio: null,
    company: "@github",
    location: "Paris",
    createdAt: "2008-01-14T04:33:35Z",
  },
  POLICY_OWNER,
];

/** Seeded repositories, in creation order. */
export const SEED_REPOS: SeedRepo[] = [MARKDOWN_LINT, URL_SHORTENER, WEATHER_CLI, TODO_API, SECRET_NOTES];

/** For each seeded open issue, a known-good fix as search/replace edits (each search occurs once). */
export const SEEDED_FIXES: SeededFix[] = [
  ...TODO_API_FIXES,
  ...WEATHER_CLI_FIXES,
  ...URL_SHORTENER_FIXES,
  ...MARKDOWN_LINT_FIXES,
  ...SECRET_NOTES_FIXES,
];
