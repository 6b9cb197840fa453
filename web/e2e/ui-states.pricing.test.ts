import { describe, it } from "vitest";
import { signIn } from "./e2e.harness";
import { expectFreeToKeepPro, payForPro } from "./ui-states.helpers";
import { uiStates } from "./ui-states.setup";

// Issue #25: the downgrade confirmation, at 1280 and 390 px.
const ui = uiStates("ui-states-pricing");

describe("leaving a paid plan at 1280 and 390 px", () => {
  it("asks before Free with what is lost and when; Keep Pro changes nothing", async () => {
    const { page: buyer } = await ui.e2e.newPage({ width: 1280 });
    await signIn(buyer, "monalisa");
    await payForPro(buyer);
    await ui.sharePhoneSession(buyer);
    for (const [page, w] of [
      [buyer, "1280"],
      [ui.phone, "390"],
    ] as const) {
      await expectFreeToKeepPro(page, w);
    }
  });
});
