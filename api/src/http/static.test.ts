import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { precompressDir } from "../../../web/vite.compress";
import { routePaths } from "../../../web/vite.routes";
import { webRoutes } from "./static";

function builtApp() {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-dist-"));
  fs.mkdirSync(path.join(dist, "assets"));
  const js = `export const words = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `word${i % 50}`))};\n`;
  fs.writeFileSync(path.join(dist, "assets", "index-abc123.js"), js);
  fs.writeFileSync(path.join(dist, "assets", "tiny-abc123.js"), "export {};\n");
  fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><div id=root></div>");
  fs.writeFileSync(path.join(dist, "routes.json"), JSON.stringify(["/", "/dashboard", "/issues/$issueId/solve"]));
  const compressed = precompressDir(dist);
  return { app: webRoutes(dist), js, compressed };
}

describe("static assets", () => {
  it("precompresses compressible build files above 1 KiB and leaves tiny ones alone", () => {
    const { compressed } = builtApp();
    expect(compressed.map((f) => path.basename(f))).toEqual(["index-abc123.js"]);
  });

  it("sends brotli to browsers that accept it, gzip to those that take only gzip, and the raw file otherwise", async () => {
    const { app, js } = builtApp();
    const br = await app.request("/assets/index-abc123.js", { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toContain("Accept-Encoding");
    expect(br.headers.get("content-type")).toMatch(/javascript/);
    expect(br.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const brBody = Buffer.from(await br.arrayBuffer());
    expect(brBody.length).toBeLessThan(js.length / 5);
    expect(zlib.brotliDecompressSync(brBody).toString()).toBe(js);

    const gz = await app.request("/assets/index-abc123.js", { headers: { "accept-encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(zlib.gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(js);

    const raw = await app.request("/assets/index-abc123.js");
    expect(raw.headers.get("content-encoding")).toBeNull();
    expect(await raw.text()).toBe(js);
  });

  it("answers 404 for a missing hashed asset instead of the app page, with no long-lived cache header", async () => {
    const { app } = builtApp();
    const res = await app.request("/assets/index-gone999.js");
    expect(res.status).toBe(404);
    expect(res.headers.get("cache-control")).toBeNull();
  });

  it("answers the app page with 200 on the router's paths and 404 elsewhere", async () => {
    const { app } = builtApp();
    for (const p of ["/", "/dashboard", "/dashboard/", "/issues/42/solve"])
      expect((await app.request(p)).status, p).toBe(200);
    for (const p of ["/nope", "/issues/42", "/issues/42/solve/more", "/dashboardx"]) {
      const res = await app.request(p);
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).toContain("<div id=root>");
    }
  });

  it("reads the page list from the router's generated route tree", () => {
    const tree = fs.readFileSync(path.join(import.meta.dirname, "../../../web/src/routeTree.gen.ts"), "utf8");
    const paths = routePaths(tree);
    expect(paths).toContain("/dashboard");
    expect(paths).toContain("/issues/$issueId/solve");
    expect(paths).not.toContain("/_app");
  });
});
