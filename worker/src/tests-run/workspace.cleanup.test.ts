import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CleanupError, removeTree, scrubHostPaths } from "./workspace.cleanup";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-cleanup-"));
afterAll(() => execFileSync("rm", ["-rf", "--one-file-system", root]));

/** 2,000 directories of 200-character names, a 255-character file name at the bottom, modes 000 on the way. */
function hostileTree(dir: string): void {
  fs.mkdirSync(dir);
  execFileSync(
    "python3",
    [
      "-c",
      `import os
for i in range(2000):
    os.mkdir("d" * 200); os.chdir("d" * 200)
    if i % 500 == 499: os.mkdir("locked"); os.chmod("locked", 0)
open("f" * 255, "w").write("x")`,
    ],
    { cwd: dir },
  );
}

describe("workspace removal", () => {
  it("removes a tree nested past PATH_MAX with long names and unreadable directories, where fs.rm gives up", async () => {
    const dir = path.join(root, "deep");
    hostileTree(dir);
    await expect(fs.promises.rm(dir, { recursive: true, force: true })).rejects.toThrow(/ENAMETOOLONG/);
    await removeTree(dir);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it("says it could not remove the workspace without naming a host path", async () => {
    const dir = path.join(root, "stuck");
    fs.mkdirSync(path.join(dir, "mnt"), { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "fixloop-test", path.join(dir, "mnt")]);
    try {
      const err = await removeTree(dir).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(CleanupError);
      expect((err as Error).message).toBe("The workspace could not be removed");
    } finally {
      execFileSync("umount", [path.join(dir, "mnt")]);
    }
  });

  it("scrubs paths under the workspaces and data directories from what reaches a user", () => {
    const msg = `ENAMETOOLONG: name too long, rmdir '${root}/workspaces/runs/123-abc/d/d' (data in ${root}/data)`;
    const out = scrubHostPaths(msg, [path.join(root, "workspaces"), root]);
    expect(out).toBe("ENAMETOOLONG: name too long, rmdir 'the workspace' (data in the workspace)");
    expect(out).not.toContain(root);
  });
});
