/** Files of the seeded private octocat/secret-notes repository. */
export const SECRET_NOTES_FILES: Record<string, string> = {
  "README.md": `# secret-notes

Private scratchpad for project ideas. Nothing here is public yet.

New ideas go in \`notes/ideas.md\`; once an idea is ready we recieve feedback in a
short design note under \`notes/\`.
`,
  "notes/ideas.md": `# Ideas

- A CLI that turns a GitHub issue into a branch name.
- Weather alerts for the url-shortener status page.
- Offline mode for todo-api.
`,
};
