import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GitStore } from "./git-store";
import { sandboxDeps } from "./index";
import { createGithubApp } from "./server";
import { StateStore } from "./state";
import { loadSpec } from "../../../test/openapi-contract";
import { UNDESCRIBED, VALIDATED } from "../../../test/openapi-routes";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gh-routes-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `GET /repos/:owner/:repo/git/ref/:ref{.+}` and `GET /repos/{owner}/{repo}/git/ref/{ref}` alike, as `GET /repos/{}/{}/git/ref/{}`. */
const shape = (route: string) => route.replace(/:\w+(\{[^}]*\})?|\{[^}]+\}/g, "{}");

describe("responses match GitHub's OpenAPI description", () => {
  it("covered every implemented operation", () => {
    const served = new Set(
      createGithubApp(sandboxDeps(StateStore.create(path.join(dir, "state.json")), new GitStore(dir), {}))
        .routes.filter((r) => r.method !== "ALL")
        .map((r) => shape(`${r.method} ${r.path}`)),
    );
    const described = new Set(
      Object.entries(loadSpec().paths).flatMap(([p, ops]) =>
        Object.keys(ops).map((m) => shape(`${m.toUpperCase()} ${p}`)),
      ),
    );
    const routes = new Set(Object.values(VALIDATED).flat());
    expect(routes.size).toBeGreaterThanOrEqual(30);
    const validated = new Set([...routes].map(shape));
    const undescribed = UNDESCRIBED.map(shape);
    // Every route the stand-in serves was validated by some contract file, or GitHub describes no such operation.
    expect([...served].filter((r) => !validated.has(r) && !undescribed.includes(r))).toEqual([]);
    expect(undescribed.filter((r) => described.has(r) || !served.has(r))).toEqual([]);
  });
});
