import type { SeededFix, SeedRepo, SeedUser } from "./seed/seed.types";
import { TODO_API, TODO_API_FIXES } from "./seed/todo-api.seed";

export { seedFiles, DEFAULT_LABELS } from "./seed/seed.types";
export type { SeedCommit, SeedIssue, SeededFix, SeedRepo, SeedUser } from "./seed/seed.types";

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
];

/** Seeded repositories, in creation order. */
export const SEED_REPOS: SeedRepo[] = [TODO_API];

/** For each seeded open issue, a known-good fix as search/replace edits (each search occurs once). */
export const SEEDED_FIXES: SeededFix[] = [...TODO_API_FIXES];
