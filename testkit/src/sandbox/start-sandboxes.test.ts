import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pickPort } from "../services/ports";
import { startSandboxes } from "./start-sandboxes";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-standins-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// Credentials for the other services, so only the GitHub stand-in starts.
const given = { GROQ_API_KEY: "k", RAZORPAY_KEY_ID: "k" };

async function githubUrl(githubPort: number, log: string[]) {
  const s = await startSandboxes({
    dataDir: dir,
    given,
    publicUrl: "http://localhost:1",
    githubPort,
    log: (l) => log.push(l),
  });
  const url = s.github?.url ?? "";
  await s.stop();
  return url;
}

describe("the GitHub stand-in's address", () => {
  it("stays the same across restarts, and moves with a warning only when its port is taken", async () => {
    const port = await pickPort(0);
    const log: string[] = [];
    expect(await githubUrl(port, log)).toBe(`http://127.0.0.1:${port}`);
    expect(await githubUrl(port, log)).toBe(`http://127.0.0.1:${port}`);
    expect(log.filter((l) => /warning/.test(l))).toEqual([]);

    const squatter = net.createServer();
    await new Promise<void>((r) => squatter.listen(port, "127.0.0.1", () => r()));
    try {
      const moved = await githubUrl(port, log);
      expect(moved).not.toBe(`http://127.0.0.1:${port}`);
      expect(log.filter((l) => /warning/.test(l))).toEqual([
        expect.stringContaining(`port ${port} is taken, so the GitHub stand-in listens on ${new URL(moved).port}`),
      ]);
    } finally {
      await new Promise((r) => squatter.close(r));
    }
  });
});
