import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { describe, expect, it } from "vitest";
import { MIGRATIONS } from "./migrations.index";

const dir = path.join(path.dirname(url.fileURLToPath(import.meta.url)), "migrations");
const onDisk = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.replace(/\.ts$/, ""))
  .sort();

describe("the migration index", () => {
  it("lists every migration file of the folder, and nothing else", () => {
    const listed = Object.keys(MIGRATIONS);
    const missing = onDisk.filter((n) => !listed.includes(n));
    // The line to add, so the failure says what to do.
    expect(
      missing.map((n) => `  "${n}": () => import("./migrations/${n}"),`),
      "add these lines to db/src/migrations.index.ts (node db/bin/migration-index.mjs writes them)",
    ).toEqual([]);
    expect(listed.filter((n) => !onDisk.includes(n))).toEqual([]);
    expect(listed).toEqual(onDisk);
  });

  it("loads each name from the file of that name", async () => {
    for (const name of onDisk) {
      const load = MIGRATIONS[name];
      expect(load, name).toBeDefined();
      const fromIndex = await load?.();
      const fromFile = (await import(url.pathToFileURL(path.join(dir, `${name}.ts`)).href)) as { up: unknown };
      expect(typeof fromIndex?.up, name).toBe("function");
      expect(fromIndex?.up, name).toBe(fromFile.up);
    }
  });
});
