import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/testing";

const { app, client, loginAs } = await createTestApp();

describe("pull request settings", () => {
  it("opens pull requests as drafts by default, and the user can turn it off and on", async () => {
    const { headers } = await loginAs();
    const settings = client(headers).settings["pull-requests"];
    const get = async () => (await settings.$get()).json();
    const put = (json: { draftPullRequests: boolean }) => settings.$put({ json });
    // A body the route must refuse: sent raw, as the typed client would not build it.
    const putRaw = (body: unknown) =>
      app.request("/api/settings/pull-requests", {
        method: "PUT",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect(await get()).toEqual({ draftPullRequests: true });
    expect((await put({ draftPullRequests: false })).status).toBe(200);
    expect(await get()).toEqual({ draftPullRequests: false });
    expect((await putRaw({ draftPullRequests: "yes" })).status).toBe(400);
    expect(await get()).toEqual({ draftPullRequests: false });
    expect((await put({ draftPullRequests: true })).status).toBe(200);
    expect(await get()).toEqual({ draftPullRequests: true });
  });
});
