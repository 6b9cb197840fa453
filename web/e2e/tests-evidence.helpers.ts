import type { Page } from "playwright-core";
import { authorizeRepositories, generate, openSolve, signIn, toast } from "./e2e.harness";

/** Signs `p` in as `login`, grants repository access, syncs `repo` and fetches its issues. */
export async function bringIn(p: Page, login: string, repo: string) {
  await signIn(p, login);
  await authorizeRepositories(p, login);
  await p.getByRole("button", { name: `Sync ${repo}` }).click();
  await toast(p, "Repository synced successfully");
  await p.getByRole("button", { name: `Fetch issues of ${repo}` }).click();
  await toast(p, /^Fetched \d+ issues$/);
}

/** Opens the solve page and starts a run. */
export async function startSolve(p: Page, title: string) {
  await openSolve(p, title);
  await generate(p);
}

export async function review(p: Page) {
  await p.getByTestId("solution-result").waitFor({ timeout: 120_000 });
  await p.getByRole("link", { name: "Review & Validate" }).click();
  await p.getByTestId("tests-panel").waitFor();
}
