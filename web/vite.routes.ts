import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

/** The router's own list of paths (`FileRoutesByTo` in the generated route tree), e.g. `/issues/$issueId/solve`. */
export function routePaths(routeTreeSource: string): string[] {
  const block = /export interface FileRoutesByTo \{([^}]*)\}/.exec(routeTreeSource)?.[1] ?? "";
  return [...block.matchAll(/^\s*'([^']+)':/gm)].map((m) => m[1] as string);
}

/**
 * Writes `routes.json` (the SPA's paths) beside the build, so the server can answer 404 for a
 * path the app has no page for instead of 200 with the app shell.
 */
export function routeManifest(routeTreeFile: string): Plugin {
  return {
    name: "fixloop-route-manifest",
    apply: "build",
    writeBundle(options) {
      const paths = routePaths(fs.readFileSync(routeTreeFile, "utf8"));
      if (!paths.length) throw new Error(`No routes found in ${routeTreeFile}`);
      fs.writeFileSync(path.join(options.dir ?? "dist", "routes.json"), JSON.stringify(paths, null, 2));
    },
  };
}
