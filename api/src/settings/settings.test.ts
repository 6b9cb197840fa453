import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/testing";

const { app, loginAs } = await createTestApp();

describe("pull request settings", () => {
  it("opens pull requests as drafts by default, and the user can turn it off and on", async () => {
    const { headers } = await loginAs();
    const get = async () => (await (await app.request("/api/settings/pull-requests", { headers })).json()) as unknown;
    const put = (body: unknown) =>
      app.request("/api/settings/pull-requests", {
        method: "PUT",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect(await get()).toEqual({ draftPullRequests: true });
    expect((await put({ draftPullRequests: false })).status).toBe(200);
    expect(await get()).toEqual({ draftPullRequests: false });
    expect((await put({ draftPullRequests: "yes" })).status).toBe(400);
    expect(await get()).toEqual({ draftPullRequests: false });
    expect((await put({ draftPullRequests: true })).status).toBe(200);
    expect(await get()).toEqual({ draftPullRequests: true });
  });
});
