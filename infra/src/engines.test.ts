import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { ROOT } from "./paths";

const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), "utf8"));

describe("the Node.js version the project states", () => {
  const stated: string = readJson("package.json").engines.node;
  const minimum = semver.minVersion(stated)?.version ?? "";

  it("satisfies every locked package, so npm install warns no EBADENGINE", () => {
    const packages: Record<string, { version?: string; engines?: { node?: string } }> =
      readJson("package-lock.json").packages;
    const refused = Object.entries(packages)
      .filter(([, p]) => typeof p.engines?.node === "string" && !semver.satisfies(minimum, p.engines.node))
      .map(([name, p]) => `${name}@${p.version} needs node ${p.engines?.node}`);
    expect(refused).toEqual([]);
  });

  it("is the one the README and the Dockerfile name", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    const major = semver.major(minimum);
    expect(readme).toContain(`Node.js ${major}.${semver.minor(minimum)} or newer`);
    expect(fs.readFileSync(path.join(ROOT, "infra/docker/Dockerfile"), "utf8")).toMatch(
      new RegExp(`FROM node:${major}\\b`),
    );
  });
});
