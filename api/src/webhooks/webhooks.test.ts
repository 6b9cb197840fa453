import { describe, expect, it } from "vitest";
import { pushEvent, webhookStack } from "../../test/webhooks.testkit";
import { errorOf } from "../../test/testing";

const t = await webhookStack();

describe("POST /api/github/webhook", () => {
  it("answers a replayed delivery 200 with duplicate: true and changes nothing", async () => {
    const pr = await t.openFixloopPull();
    const delivery = crypto.randomUUID();
    expect((await t.post("push", pushEvent(t.repository, pr.branch, "b".repeat(40)), { delivery })).status).toBe(200);
    const count = await t.countEvents();
    const again = await t.post("push", pushEvent(t.repository, pr.branch, "c".repeat(40)), { delivery });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ status: "duplicate", duplicate: true });
    expect(await t.countEvents()).toBe(count);
  });

  it("refuses a bad or missing signature with 401, stores nothing and logs it", async () => {
    const pr = await t.openFixloopPull();
    const count = await t.countEvents();
    const body = pushEvent(t.repository, pr.branch, "d".repeat(40));
    const bad = await t.post("push", body, { signature: `sha256=${"0".repeat(64)}` });
    expect(bad.status).toBe(401);
    expect((await errorOf(bad)).code).toBe("webhook.bad_signature");
    const missing = await t.post("push", body, { signature: null });
    expect(missing.status).toBe(401);
    expect((await errorOf(missing)).code).toBe("webhook.missing_signature");
    expect(await t.countEvents()).toBe(count);
    const logged = t.stack.logs.filter((l) => l.includes("github webhook refused"));
    expect(logged.some((l) => l.includes("webhook.bad_signature"))).toBe(true);
    expect(logged.some((l) => l.includes("webhook.missing_signature"))).toBe(true);
  });

  it("ignores (202) and logs an event for a repository Fixloop does not know", async () => {
    const count = await t.countEvents();
    const res = await t.post("push", {
      ...pushEvent(t.repository, "main", "e".repeat(40)),
      repository: { id: 987_654_321, name: "unknown", full_name: "evil/unknown", owner: { login: "evil" } },
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ status: "ignored", reason: "unknown_repository" });
    expect(await t.countEvents()).toBe(count);
    expect(t.stack.logs.some((l) => l.includes("evil/unknown") && l.includes("does not know"))).toBe(true);
  });

  it("matches a delivery by its repository's id, never by the name alone", async () => {
    const pr = await t.openFixloopPull();
    const count = await t.countEvents();
    // The name of the repository Fixloop keeps, under another id (a new repository that took the
    // name) or under none: a push to Fixloop's branch there records nothing.
    for (const repository of [{ ...t.repository, id: 987_654_322 }, { full_name: t.repository.full_name }]) {
      const res = await t.post("push", { ...pushEvent(t.repository, pr.branch, "e".repeat(40)), repository });
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ status: "ignored", reason: "unknown_repository" });
    }
    expect(await t.countEvents()).toBe(count);
    expect((await t.post("push", pushEvent(t.repository, pr.branch, "e".repeat(40)))).status).toBe(200);
    expect(await t.countEvents()).toBe(count + 1);
  });

  it("refuses a body over the size limit with 413 before reading it as an event", async () => {
    const count = await t.countEvents();
    const big = JSON.stringify({ ...pushEvent(t.repository, "main", "f".repeat(40)), padding: "x".repeat(1_100_000) });
    const res = await t.post("push", null, { raw: big });
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe("request.too_large");
    expect(await t.countEvents()).toBe(count);
  });

  it("answers 400 to a signed body that is not JSON and 202 to an event type it does not handle", async () => {
    const bad = await t.post("push", null, { raw: "{not json" });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).code).toBe("webhook.invalid_json");
    const other = await t.post("star", { action: "created", repository: t.repository });
    expect(other.status).toBe(202);
    expect(await other.json()).toEqual({ status: "ignored", reason: "unsupported_event" });
  });
});
