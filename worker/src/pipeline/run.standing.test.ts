import { describe, expect, it } from "vitest";
import { ACTIONS, issueGoneStop, standing } from "@fixloop/contract";
import { runStopAtJobTime } from "./run.standing";

const row = { gone: null, moved_to: null, status: "open", state: "open", is_imported: false, repository_left_at: null };

describe("a run a worker takes", () => {
  it("ends cancelled in the run's own words when the table refuses a resume of its issue (gone from GitHub)", () => {
    expect(runStopAtJobTime({ ...row, status: "closed", state: "closed", gone: "deleted" })).toEqual(
      issueGoneStop("deleted"),
    );
    const moved = {
      ...row,
      status: "closed",
      gone: "transferred" as const,
      moved_to: "https://github.com/o/r/issues/2",
    };
    expect(runStopAtJobTime(moved)).toEqual(issueGoneStop("transferred"));
    expect(ACTIONS.resume(standing(moved)).allowed).toBe(false);
  });

  it("carries on whatever else the issue's standing says, as the table allows a resume of it", () => {
    // Closed on GitHub, or its repository left the list (the left-repositories reconciler stops those runs).
    for (const issue of [
      row,
      { ...row, status: "closed", state: "closed" },
      { ...row, repository_left_at: new Date() },
    ]) {
      expect(ACTIONS.resume(standing(issue)).allowed).toBe(true);
      expect(runStopAtJobTime(issue)).toBeNull();
    }
  });
});
