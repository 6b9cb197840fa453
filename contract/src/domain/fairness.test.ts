import { describe, expect, it } from "vitest";
import { ActiveRunCapsSetting, parseActiveRunCaps, queuedNote } from "./fairness";

describe("MAX_ACTIVE_RUNS_PER_USER", () => {
  it("keeps the plans' caps when empty, sets every plan's from one number, and named plans' from pairs", () => {
    expect(parseActiveRunCaps("")).toEqual({ FREE: 1, PRO: 2, ENTERPRISE: 4 });
    expect(parseActiveRunCaps("3")).toEqual({ FREE: 3, PRO: 3, ENTERPRISE: 3 });
    expect(parseActiveRunCaps("FREE=2, ENTERPRISE=10")).toEqual({ FREE: 2, PRO: 2, ENTERPRISE: 10 });
  });

  it("refuses an unknown plan or a count that is not a whole number from 1", () => {
    expect(ActiveRunCapsSetting.safeParse("GOLD=3").error?.issues[0]?.message).toBe(
      '"GOLD" is not a plan (FREE, PRO, ENTERPRISE)',
    );
    expect(ActiveRunCapsSetting.safeParse("0").success).toBe(false);
    expect(ActiveRunCapsSetting.safeParse("PRO=1.5").success).toBe(false);
  });
});

describe("a queued run's note", () => {
  it("names the user's runs ahead when they hold it, else the workers", () => {
    expect(queuedNote(3, 2)).toBe("queued: 3 of your runs ahead");
    expect(queuedNote(1, 1)).toBe("queued: 1 of your runs ahead");
    expect(queuedNote(1, 2)).toBe("waiting for a free worker");
  });
});
