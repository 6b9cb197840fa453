import { SECRET_NOTES_FILES } from "./secret-notes.files";
import type { SeededFix, SeedRepo } from "./seed.types";

/** A private repository: invisible to other users and to tokens without the `repo` scope. */
export const SECRET_NOTES: SeedRepo = {
  owner: "octocat",
  name: "secret-notes",
  description: "Private scratchpad for project ideas",
  language: "Markdown",
  topics: [],
  private: true,
  defaultBranch: "main",
  createdAt: "2024-01-02T09:00:00Z",
  commits: [{ message: "Start a notes repository", date: "2024-01-02T09:05:00Z", files: SECRET_NOTES_FILES }],
  issues: [
    {
      title: 'Typo in README: "recieve"',
      body: 'The last paragraph of `README.md` says "we recieve feedback"; it should be "receive".',
      labels: ["documentation"],
      user: "octocat",
      createdAt: "2024-01-03T10:00:00Z",
      state: "open",
    },
  ],
  failingTests: ["test_no_common_misspellings"],
};

export const SECRET_NOTES_FIXES: SeededFix[] = [
  {
    repo: "octocat/secret-notes",
    issueNumber: 1,
    title: 'Fix the spelling of "receive"',
    analysis: 'README.md misspells "receive" as "recieve".',
    proposedSolution: "Correct the word in the README.",
    files: [
      {
        filename: "README.md",
        action: "modify",
        edits: [{ search: "we recieve feedback", replace: "we receive feedback" }],
      },
    ],
  },
];
