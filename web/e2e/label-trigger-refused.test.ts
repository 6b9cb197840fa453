import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { screenshot, seriousA11yViolations, signIn, startE2E, toast, type E2E } from "./e2e.harness";
import { bringIn } from "./tests-evidence.helpers";

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E("label-trigger-refused");
});
afterAll(async () => {
  await e2e?.stop();
});

const REPO = "octocat/todo-api";
const overflow = (p: Page) =>
  p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Opens the repository card's label setting. */
async function labelSetting(p: Page) {
  await p.goto("/repositories");
  const card = p.getByRole("listitem").filter({ hasText: REPO });
  await card.getByText("Solve on label").click();
  await card.getByLabel("Solve issues labelled").waitFor();
  return card;
}

describe("a label an outsider's issue gets automatically does not spend the owner's money", () => {
  it("an outsider's issue opened with the label by its template starts no run, and the repository's trigger settings say why (1280 and 390 px)", async () => {
    const { page: wide } = await e2e.newPage();
    await bringIn(wide, "octocat", REPO);
    let card = await labelSetting(wide);
    await card.getByLabel("Solve issues labelled").check();
    await card.getByLabel("Label", { exact: true }).fill("documentation");
    await card.getByLabel(/Also allowed to add it/).fill("issue-labeler[bot]");
    await card.getByRole("button", { name: `Save label setting of ${REPO}` }).click();
    await toast(wide, "Issues labelled documentation will be solved");
    expect(await card.getByTestId("label-trigger-refused").count()).toBe(0);

    // monalisa opens an issue; the repository's issue template labels it "documentation".
    const [n = 0] = e2e.github.addIssues("octocat", "todo-api", [
      { title: "The API reference lacks the PATCH route", user: "monalisa", labels: ["documentation"] },
    ]);
    await wide.getByRole("button", { name: `Sync ${REPO}` }).click();
    await toast(wide, "Repository synced successfully");

    card = await labelSetting(wide);
    const note = card.getByTestId("label-trigger-refused");
    await expect.poll(async () => note.count(), { timeout: 15_000 }).toBe(1);
    const text = (await note.textContent()) ?? "";
    expect(text).toMatch(/^Last refused: issue #\d+/);
    expect(text).toMatch(
      /No run started: the repository sync cannot tell who added the label, and the issue's author (monalisa|hubot) has only read access to octocat\/todo-api/,
    );
    expect(await card.getByLabel(/Also allowed to add it/).inputValue()).toBe("issue-labeler[bot]");
    await screenshot(wide, "repository-label-trigger-refused");
    expect(await seriousA11yViolations(wide)).toEqual([]);

    // No run, and nothing said on the outsider's issue: the refusal is only logged and shown to the owner.
    expect(e2e.logs.some((l) => l.includes("label trigger refused") && l.includes(`"issue":${n}`))).toBe(true);
    expect(e2e.logs.some((l) => l.includes('"msg":"label trigger"') && l.includes('"outcome":"started"'))).toBe(false);
    const comments = await fetch(`${e2e.stack.env.GITHUB_API_URL}/repos/octocat/todo-api/issues/${n}/comments`, {
      headers: { authorization: `token ${e2e.github.issueToken("octocat", ["repo"])}` },
    });
    expect(await comments.json()).toEqual([]);

    const { page: narrow } = await e2e.newPage({ width: 390 });
    await signIn(narrow, "octocat");
    const narrowCard = await labelSetting(narrow);
    await narrowCard.getByTestId("label-trigger-refused").waitFor();
    expect(await overflow(narrow)).toBeLessThanOrEqual(0);
    await screenshot(narrow, "repository-label-trigger-refused-390");
  });
});
