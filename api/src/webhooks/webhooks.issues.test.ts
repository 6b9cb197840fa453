import { describe, expect, it } from "vitest";
import { webhookStack } from "../../test/webhooks.testkit";

const t = await webhookStack();

/** The repository as a sync stores it (this file runs no sync worker). */
async function storeRepository() {
  await t.storeRepository(t.octocat.user._id, t.REPO.owner, t.REPO.repo);
}

/** An issues.labeled delivery's body for issue `number` of octocat/todo-api (by its stand-in id). */
const labeledEvent = (number: number, label = "fixloop") => ({
  action: "labeled",
  repository: t.repository,
  issue: { number },
  label: { name: label },
  sender: { login: "octocat" },
});

/** Turns the label trigger on for octocat/todo-api (label "fixloop"), as its owner. */
async function enableLabelTrigger() {
  const enable = await t.stack.app.request("/api/github/repositories/octocat/todo-api/label-trigger", {
    method: "PUT",
    headers: { ...t.octocat.headers, "content-type": "application/json" },
    body: JSON.stringify({ enabled: true, label: "fixloop" }),
  });
  expect(enable.status).toBe(200);
}

describe("POST /api/github/webhook", () => {
  it("starts the label trigger's solve from a signed issues.labeled delivery, once however often it is delivered", async () => {
    await storeRepository();
    await enableLabelTrigger();
    const [n = 0] = t.control.addIssues("octocat", "todo-api", [{ title: "Crash when the list is empty" }]);
    const before = (await t.control.webhookDeliveries()).length;
    // The stand-in delivers issues.labeled to the app, signed, as GitHub does.
    await t.gh("octocat").rest.issues.addLabels({ ...t.REPO, issue_number: n, labels: ["fixloop"] });
    const sent = (await t.control.webhookDeliveries()).slice(before);
    expect(sent.map((d) => [d.event, d.status])).toEqual([["issues", 200]]);
    const event = labeledEvent(n);
    // Another delivery (a new id) of the same label starts nothing more.
    const again = await t.post("issues", event);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ status: "ignored", reason: "label_trigger_duplicate" });
    const runs = await t.stack.db
      .selectFrom("solve_runs")
      .innerJoin("issues", "issues.id", "solve_runs.issue_id")
      .select(["solve_runs.input"])
      .where("issues.issue_number", "=", n)
      .where("issues.repository_github_id", "=", String(t.repository.id))
      .execute();
    expect(runs).toHaveLength(1);
    expect(runs[0]?.input).toMatchObject({ trigger: "label" });
    const unlabeled = await t.post("issues", { ...event, action: "unlabeled" });
    expect(await unlabeled.json()).toMatchObject({ status: "ignored" });
  });

  it("forgets an issues.labeled delivery whose GitHub read failed, so GitHub's redelivery starts the solve", async () => {
    await storeRepository();
    await enableLabelTrigger();
    // The stand-in's own delivery is off: this test delivers, and redelivers, itself.
    t.control.setWebhook(null);
    const [n = 0] = t.control.addIssues("octocat", "todo-api", [{ title: "Crash when the page size is zero" }]);
    await t.gh("octocat").rest.issues.addLabels({ ...t.REPO, issue_number: n, labels: ["fixloop"] });
    t.control.setWebhook(t.hook);
    const event = labeledEvent(n);
    const delivery = crypto.randomUUID();
    t.control.failNext({ path: new RegExp(`/issues/${n}$`), status: 403, kind: "primary", retryAfter: 3600 });
    const failed = await t.post("issues", event, { delivery });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    const stored = () =>
      t.stack.db.selectFrom("webhook_events").select("event_id").where("event_id", "=", `github:${delivery}`).execute();
    expect(await stored()).toEqual([]);
    const again = await t.post("issues", event, { delivery });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ status: "applied", recorded: 1 });
    expect(await stored()).toHaveLength(1);
    const replay = await t.post("issues", event, { delivery });
    expect(await replay.json()).toEqual({ status: "duplicate", duplicate: true });
  });

  it("answers a burst of issues.labeled deliveries larger than the database pool", async () => {
    // The label trigger reads and calls GitHub outside the delivery's transaction: inside it, each
    // delivery held one pooled connection while waiting for a second, and a burst as large as the
    // pool (10 here) waited on itself for good.
    await storeRepository();
    const burst = Array.from({ length: 14 }, (_, i) => t.post("issues", labeledEvent(500 + i, "not-a-trigger")));
    const timeout = new Promise<"timed out">((resolve) => setTimeout(() => resolve("timed out"), 15_000).unref());
    const answered = await Promise.race([Promise.all(burst), timeout]);
    if (answered === "timed out") throw new Error("the burst of deliveries got no answer within 15 s");
    expect(answered.map((r) => r.status)).toEqual(Array(14).fill(200));
    const bodies = await Promise.all(answered.map((r) => r.json()));
    expect(new Set(bodies.map((b) => JSON.stringify(b)))).toEqual(
      new Set([JSON.stringify({ status: "ignored", reason: "label_trigger_disabled" })]),
    );
  });
});
