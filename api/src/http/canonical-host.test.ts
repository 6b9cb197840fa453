import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../deps";
import { canonicalLoopbackHost } from "./canonical-host";

function appAt(publicUrl: string | undefined) {
  const app = new Hono<AppEnv>();
  app.use("*", canonicalLoopbackHost(publicUrl));
  app.all("*", (c) => c.text("page"));
  return app;
}

describe("opening the app at another loopback name than PUBLIC_URL's", () => {
  const app = appAt("http://localhost:3000");

  it("sends a page at 127.0.0.1 to the same page at PUBLIC_URL, where sign-in's cookies will be", async () => {
    const page = await app.request("http://127.0.0.1:3000/validations?tab=x");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("http://localhost:3000/validations?tab=x");
    expect((await app.request("http://[::1]:3000/")).headers.get("location")).toBe("http://localhost:3000/");
  });

  it("leaves the API, other methods, the right name (any port) and non-loopback hosts alone", async () => {
    for (const [url, method] of [
      ["http://127.0.0.1:3000/api/issues", "GET"],
      ["http://127.0.0.1:3000/assets/index-abc.js", "GET"],
      ["http://127.0.0.1:3000/api/auth/session", "POST"],
      ["http://127.0.0.1:3000/auth", "POST"],
      ["http://localhost:3000/validations", "GET"],
      ["http://localhost:5173/validations", "GET"],
      ["http://fixloop.example/validations", "GET"],
    ] as const)
      expect((await app.request(url, { method })).status, `${method} ${url}`).toBe(200);
    // A deployment's own name is never redirected, whatever Host a proxy sends.
    const deployed = appAt("https://fixloop.example");
    expect((await deployed.request("http://127.0.0.1:8080/dashboard")).status).toBe(200);
    // Without PUBLIC_URL the origin browsers use is not known: nothing to send them to.
    expect((await appAt(undefined).request("http://127.0.0.1:8080/dashboard")).status).toBe(200);
  });
});
