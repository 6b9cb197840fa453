import fs from "node:fs";
import path from "node:path";
import { Hono } from "hono";
import { serveStatic } from "@hono/node-server/serve-static";
import type { AppEnv } from "../deps";

/**
 * Serves the built SPA: hashed assets cached forever, every other non-API path gets index.html.
 * The build writes `.br` and `.gz` beside each compressible file, sent to browsers that accept them.
 */
export function webRoutes(distDir: string) {
  const app = new Hono<AppEnv>();
  const indexFile = path.join(distDir, "index.html");
  const isPage = pageMatcher(distDir);
  const root = path.relative(process.cwd(), distDir) || ".";
  // serveStatic's onFound runs after the response is built, too late for a header: set it on the way out.
  app.use("/assets/*", async (c, next) => {
    await next();
    if (c.res.status === 200) c.res.headers.set("Cache-Control", "public, max-age=31536000, immutable");
  });
  app.use("/assets/*", serveStatic({ root, precompressed: true }));
  // A missing hashed file (an old page after a deploy) is a 404, never index.html cached for a year.
  app.get("/assets/*", (c) => c.text("Not found", 404));
  app.use("*", serveStatic({ root, precompressed: true }));
  app.get("*", (c) => {
    if (!fs.existsSync(indexFile)) return c.text("The web app is not built. Run `npm run build`.", 503);
    c.header("Cache-Control", "no-cache");
    // The app renders its own "Page not found"; the status says so too.
    return c.html(fs.readFileSync(indexFile, "utf8"), isPage(c.req.path) ? 200 : 404);
  });
  return app;
}

/**
 * Whether a path is one of the web app's pages, from the `routes.json` the build writes (the
 * router's own list; `$param` matches one segment). Without it every path counts as a page.
 */
function pageMatcher(distDir: string): (p: string) => boolean {
  let patterns: string[];
  try {
    patterns = JSON.parse(fs.readFileSync(path.join(distDir, "routes.json"), "utf8")) as string[];
  } catch {
    return () => true;
  }
  const split = (p: string) => p.split("/").filter(Boolean);
  const routes = patterns.map(split);
  return (p) => {
    const parts = split(p);
    return routes.some(
      (r) => r.length === parts.length && r.every((seg, i) => seg.startsWith("$") || seg === parts[i]),
    );
  };
}
