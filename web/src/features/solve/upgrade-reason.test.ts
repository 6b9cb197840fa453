import { describe, expect, it } from "vitest";
import { upgradeReasonFor } from "./upgrade-reason";

describe("the upgrade prompt after a refused generate", () => {
  it("is chosen by the error code, whatever the message says", () => {
    expect(upgradeReasonFor("plan.model_not_allowed")).toBe("model_access");
    expect(upgradeReasonFor("usage.limit_exceeded")).toBe("usage_limit");
  });

  it("is not shown for other errors, even with the same message text", () => {
    expect(upgradeReasonFor("Premium subscription required")).toBeNull();
    expect(upgradeReasonFor("Usage limit exceeded")).toBeNull();
    expect(upgradeReasonFor("issue.closed")).toBeNull();
  });
});
