import type { Page } from "playwright-core";
import { authorizeRepositories, signIn, toast } from "./e2e.harness";

/** Signs `p` in as `login`, grants repository access, syncs `repo` and fetches its issues. */
export async function bringIn(p: Page, login: string, repo: string) {
  await signIn(p, login);
  await authorizeRepositories(p, login);
  await p.getByRole("button", { name: `Sync ${repo}` }).click();
  await toast(p, "Repository synced successfully");
  await p.getByRole("button", { name: `Fetch issues of ${repo}` }).click();
  await toast(p, /^Fetched \d+ issues$/);
}

export async function startSolve(p: Page, title: string) {
  await p.goto("/issues");
  await p.getByRole("link", { name: `Solve with AI: ${title}` }).click();
  // Titles render their inline markdown: `code` shows as code, without the backticks.
  await p.getByRole("heading", { name: title.replace(/`/g, "") }).waitFor();
  await p.getByRole("button", { name: "Generate Solution" }).click();
  await p.waitForURL(/[?&]run=/);
}

export async function review(p: Page) {
  await p.getByTestId("solution-result").waitFor({ timeout: 120_000 });
  await p.getByRole("link", { name: "Review & Validate" }).click();
  await p.getByTestId("tests-panel").waitFor();
}
