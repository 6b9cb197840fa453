import { describe, expect, it } from "vitest";
import { eventually } from "./eventually";

describe("eventually", () => {
  it("returns the first answer that neither throws nor is false", async () => {
    let tries = 0;
    const got = await eventually(
      () => {
        tries++;
        if (tries < 3) throw new Error("not yet");
        return tries < 4 ? false : { tries };
      },
      { interval: 1 },
    );
    expect(got).toEqual({ tries: 4 });
  });

  it("passes an assertion callback once it stops throwing", async () => {
    let n = 0;
    await expect(
      eventually(
        () => {
          expect(++n).toBe(2);
        },
        { interval: 1 },
      ),
    ).resolves.toBeUndefined();
    expect(n).toBe(2);
  });

  it("fails after its timeout with the last assertion's message", async () => {
    const started = Date.now();
    await expect(
      eventually(() => expect(1).toBe(2), { timeout: 100, interval: 10, what: "one to be two" }),
    ).rejects.toThrow(/timed out after 100 ms waiting for one to be two: .*expected 1 to be 2/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });

  it("fails when the check stays false", async () => {
    await expect(eventually(() => false, { timeout: 30, interval: 5 })).rejects.toThrow(/it stayed false/);
  });
});
