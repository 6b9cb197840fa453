import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { untrustedOutput } from "./agent.output";
import { PathRefused, repoPath } from "./agent.paths";
import { WorkingCopy } from "./agent.workspace";

let root = "";
let outside = "";
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "agent-walls-"));
  outside = await fs.mkdtemp(path.join(os.tmpdir(), "agent-outside-"));
  await fs.writeFile(path.join(outside, "secret.txt"), "TOKEN=abc\n");
  await fs.mkdir(path.join(root, "src"));
  await fs.writeFile(path.join(root, "src", "a.js"), "const a = 1;\nconst b = 2;\n");
  await fs.symlink(path.join(outside, "secret.txt"), path.join(root, "link.txt"));
  await fs.symlink(outside, path.join(root, "linkdir"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
  await fs.rm(outside, { recursive: true, force: true });
});

describe("the agent's working copy walls", () => {
  it("refuses links out of the repository, to a file or through a directory, for reading and editing", async () => {
    const copy = new WorkingCopy(root);
    await expect(copy.read("link.txt")).rejects.toThrow(PathRefused);
    await expect(copy.read("linkdir/secret.txt")).rejects.toThrow(/symbolic link/);
    await expect(copy.list("linkdir")).rejects.toThrow(/symbolic link/);
    await expect(
      copy.edit({ filename: "linkdir/secret.txt", action: "create", edits: [], content: "x" }),
    ).rejects.toThrow(PathRefused);
    const found: string[] = [];
    for await (const f of copy.files("")) found.push(f);
    expect(found).toEqual(["src/a.js"]);
  });

  it("applies an edit whole or not at all", async () => {
    const copy = new WorkingCopy(root);
    const edits = [
      { search: "const a = 1;", replace: "const a = 10;" },
      { search: "const c = 3;", replace: "const c = 30;" },
    ];
    await expect(copy.edit({ filename: "src/a.js", action: "modify", edits })).rejects.toThrow(/nothing changed/);
    expect(await copy.read("src/a.js")).toBe("const a = 1;\nconst b = 2;\n");
    expect(await copy.changes()).toEqual([]);
    const done = await copy.edit({ filename: "src/a.js", action: "modify", edits: edits.slice(0, 1) });
    expect(done.diff).toContain("+const a = 10;");
    expect((await copy.changes()).map((c) => c.filename)).toEqual(["src/a.js"]);
    expect(await fs.readFile(path.join(root, "src", "a.js"), "utf8")).toBe("const a = 1;\nconst b = 2;\n");
  });

  it("refuses paths that leave the repository or enter .git before touching the disk", () => {
    for (const bad of ["../x", "src/../../x", "/etc/passwd", "~/.ssh/id_rsa", ".git/config", "src/.GIT/x", "a\u202eb"])
      expect(() => repoPath(bad), bad).toThrow(PathRefused);
    expect(repoPath("./src//a.js")).toBe("src/a.js");
  });
});

describe("tool output handed to the next turn", () => {
  it("strips escape sequences and hidden characters and keeps the start and end of long output", () => {
    expect(untrustedOutput("A\u202eB\u001b[31mC\u200bD\u0007", 100)).toBe("ABCD");
    const long = `${"a".repeat(5000)}${"z".repeat(5000)}`;
    const cut = untrustedOutput(long, 1000);
    expect(cut.length).toBeLessThan(1100);
    expect(cut.startsWith("aaa")).toBe(true);
    expect(cut.endsWith("zzz")).toBe(true);
    expect(cut).toContain("characters left out");
  });
});
