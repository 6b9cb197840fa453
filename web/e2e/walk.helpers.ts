import type { Page } from "playwright-core";
import { toast } from "./e2e.harness";

/** Each page with its width's label, for a check made at both widths. */
export const atBothWidths = (desk: Page, phone: Page) =>
  [
    [desk, "1280"],
    [phone, "390"],
  ] as const;

/** The phone page signs in as the desktop page did (its cookies). */
export async function sharePhoneSession(desk: Page, phone: Page) {
  await phone.context().clearCookies();
  await phone.context().addCookies(await desk.context().cookies());
}

/** Fetches octocat/todo-api's issues from the repositories page. */
export async function fetchIssues(page: Page, repo = "octocat/todo-api") {
  await page.goto("/repositories");
  await page.getByRole("button", { name: `Fetch issues of ${repo}` }).click();
  await toast(page, /^Fetched \d+ issues$/);
}
