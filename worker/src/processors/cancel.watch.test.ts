import { describe, expect, it } from "vitest";
import { runs } from "@fixloop/db";
import { createTestDatabase, eventually, insertIssue, insertRun, insertUser } from "@fixloop/testkit";
import { watchCancel } from "./cancel.watch";

const logger = { info() {}, warn() {} } as never;

describe("a running solve's cancel signal", () => {
  it("follows the cancel flag in Postgres when the cancel channel's message never arrives", async () => {
    const { db } = await createTestDatabase();
    const userId = await insertUser(db);
    const issue = await insertIssue(db, userId);
    const run = await insertRun(db, { user_id: userId, issue_id: issue.id, status: "running", model_id: "m" });
    const channel = new AbortController(); // never aborted: the published message was lost
    // The watch's reads of the flag, counted as their answers arrive.
    let answered = 0;
    const counted = db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => (answered++, args.result),
    });
    const watch = watchCancel({ db: counted, logger }, run.id, channel.signal, 50);
    try {
      // Several reads found the flag unset, and the watch stayed as it was.
      await eventually(() => answered >= 3, { what: "three reads of the cancel flag" });
      expect(watch.signal.aborted).toBe(false);
      expect(await runs.requestCancel(db, run.id)).toBe(true);
      await eventually(() => watch.signal.aborted, { timeout: 2_000, interval: 20, what: "the watch to abort" });
    } finally {
      watch.stop();
    }
  });

  it("still follows the cancel channel at once, and stops reading once the run is over", async () => {
    const { db } = await createTestDatabase();
    const channel = new AbortController();
    const watch = watchCancel({ db, logger }, "00000000-0000-0000-0000-000000000000", channel.signal, 60_000);
    channel.abort(new Error("cancelled by the user"));
    expect(watch.signal.aborted).toBe(true);
    expect((watch.signal.reason as Error).message).toBe("cancelled by the user");
    watch.stop();
  });
});
