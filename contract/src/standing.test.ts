import { describe, expect, it } from "vitest";
import {
  ACTION_NAMES,
  ACTIONS,
  type Action,
  actionsOf,
  type Standing,
  type StandingCondition,
  STANDING_CONDITIONS,
  standing,
} from "./standing";
import { OPEN_PULL_REQUEST_MESSAGE } from "./domain/statuses";

const CLEAR: Standing = { gone: null, movedTo: null, repositoryLeft: false, closed: false, pullRequestOpen: false };
const MOVED = "https://github.com/octocat/elsewhere/issues/3";

/** The standing where exactly `c` holds (a transferred issue for `gone`). */
const only = (c: StandingCondition): Standing =>
  ({
    gone: { ...CLEAR, gone: "transferred" as const, movedTo: MOVED },
    repository_left: { ...CLEAR, repositoryLeft: true },
    closed: { ...CLEAR, closed: true },
    pull_request_open: { ...CLEAR, pullRequestOpen: true },
  })[c];

const LEFT = "You no longer have access to this issue's repository on GitHub, so";
const TRANSFERRED = `This issue was transferred to another repository on GitHub (${MOVED}); import it from there to solve it`;

/** Each action's answer when exactly one condition holds: [status, code, reason], or null when it is allowed. */
const EXPECTED: Record<Action, Record<StandingCondition, [number, string, string] | null>> = {
  solve: {
    gone: [410, "issue.transferred", TRANSFERRED],
    repository_left: [403, "repository.access_lost", `${LEFT} it cannot be solved`],
    closed: [409, "issue.closed", "This issue is closed; reopen it to generate a solution"],
    pull_request_open: [409, "issue.pull_request_open", OPEN_PULL_REQUEST_MESSAGE],
  },
  resume: {
    gone: [410, "issue.transferred", TRANSFERRED],
    repository_left: null,
    closed: null,
    pull_request_open: null,
  },
  refine: {
    gone: null,
    repository_left: [403, "repository.access_lost", `${LEFT} its solution cannot be refined`],
    closed: null,
    pull_request_open: null,
  },
  address: {
    gone: null,
    repository_left: [403, "repository.access_lost", `${LEFT} its solution cannot be refined to address this review`],
    closed: null,
    pull_request_open: null,
  },
  approve: {
    gone: [
      410,
      "pull_request.issue_gone",
      `The issue was transferred to another repository on GitHub (${MOVED}); no pull request is opened for it here`,
    ],
    repository_left: [403, "repository.access_lost", `${LEFT} its pull request cannot be opened`],
    closed: null,
    pull_request_open: [409, "issue.pull_request_open", OPEN_PULL_REQUEST_MESSAGE],
  },
  push: {
    gone: null,
    repository_left: [403, "repository.access_lost", `${LEFT} no revision can be pushed to its pull request`],
    closed: null,
    pull_request_open: null,
  },
};

/** The conditions each action refuses, first first (the entry points checked them in this order). */
const FIRST: Record<Action, StandingCondition[]> = {
  solve: ["gone", "repository_left", "closed", "pull_request_open"],
  resume: ["gone"],
  refine: ["repository_left"],
  address: ["repository_left"],
  approve: ["repository_left", "gone", "pull_request_open"],
  push: ["repository_left"],
};

/** Every standing: each subset of the conditions, with a gone issue deleted or transferred. */
function everyStanding(): Standing[] {
  const all: Standing[] = [];
  for (let mask = 0; mask < 2 ** STANDING_CONDITIONS.length; mask++) {
    const holding = STANDING_CONDITIONS.filter((_, i) => mask & (1 << i));
    const base: Standing = {
      gone: holding.includes("gone") ? "transferred" : null,
      movedTo: holding.includes("gone") ? MOVED : null,
      repositoryLeft: holding.includes("repository_left"),
      closed: holding.includes("closed"),
      pullRequestOpen: holding.includes("pull_request_open"),
    };
    all.push(base);
    if (base.gone) all.push({ ...base, gone: "deleted", movedTo: null });
  }
  return all;
}

describe("what each action allows of an issue", () => {
  it("allows every action of an issue where nothing holds", () => {
    for (const a of ACTION_NAMES) expect(ACTIONS[a](CLEAR), a).toEqual({ allowed: true });
  });

  it("answers each single condition with the status, code and words its entry point always gave", () => {
    for (const a of ACTION_NAMES)
      for (const c of STANDING_CONDITIONS) {
        const want = EXPECTED[a][c];
        const got = ACTIONS[a](only(c));
        expect(got, `${a} × ${c}`).toEqual(
          want ? { allowed: false, condition: c, status: want[0], code: want[1], reason: want[2] } : { allowed: true },
        );
      }
  });

  it("answers every combination with the first condition the action names, and allows what none of its refuses", () => {
    const standings = everyStanding();
    expect(standings).toHaveLength(24);
    for (const s of standings)
      for (const a of ACTION_NAMES) {
        // The single-condition answers above say which conditions refuse; this says which wins.
        expect(FIRST[a].toSorted(), a).toEqual(STANDING_CONDITIONS.filter((c) => EXPECTED[a][c]).toSorted());
        const holding = FIRST[a].filter((c) => holds(s, c));
        const got = ACTIONS[a](s);
        const label = `${a} × ${JSON.stringify(s)}`;
        if (holding.length === 0) expect(got, label).toEqual({ allowed: true });
        else expect(got.allowed === false && got.condition, label).toBe(holding[0]);
      }
  });

  it("says a deleted issue was deleted, in the words of a solve and of an approval", () => {
    const deleted = { ...CLEAR, gone: "deleted" as const };
    expect(ACTIONS.solve(deleted)).toMatchObject({
      code: "issue.deleted",
      reason: "This issue was deleted on GitHub, so it cannot be solved",
    });
    expect(ACTIONS.resume(deleted)).toMatchObject({ status: 410, code: "issue.deleted" });
    expect(ACTIONS.approve(deleted)).toMatchObject({
      code: "pull_request.issue_gone",
      reason: "The issue was deleted on GitHub; no pull request is opened for it",
    });
    expect(ACTIONS.solve({ ...CLEAR, gone: "transferred" })).toMatchObject({
      reason: "This issue was transferred to another repository on GitHub; import it from there to solve it",
    });
  });

  it("serves each action as allowed or with its code and reason, nothing more", () => {
    const views = actionsOf({ ...CLEAR, repositoryLeft: true });
    expect(Object.keys(views)).toEqual([...ACTION_NAMES]);
    expect(views.resume).toEqual({ allowed: true });
    expect(views.push).toEqual({
      allowed: false,
      code: "repository.access_lost",
      reason: `${LEFT} no revision can be pushed to its pull request`,
    });
  });

  it("says where a transferred issue went with the refusals its transfer makes, and only with them", () => {
    const views = actionsOf({ ...CLEAR, gone: "transferred", movedTo: MOVED, repositoryLeft: true });
    expect(views.solve).toMatchObject({ code: "issue.transferred", movedTo: MOVED });
    expect(views.approve).toMatchObject({ code: "repository.access_lost" });
    expect(views.approve).not.toHaveProperty("movedTo");
    expect(views.refine).not.toHaveProperty("movedTo");
    // Deleted, or transferred to a place not known: nothing to link.
    expect(actionsOf({ ...CLEAR, gone: "deleted", movedTo: MOVED }).solve).not.toHaveProperty("movedTo");
    expect(actionsOf({ ...CLEAR, gone: "transferred" }).resume).toEqual({
      allowed: false,
      code: "issue.transferred",
      reason: "This issue was transferred to another repository on GitHub; import it from there to solve it",
    });
  });
});

describe("an issue's standing", () => {
  const row = {
    gone: null,
    moved_to: null,
    status: "open",
    state: "open",
    is_imported: false,
    repository_left_at: null,
  };

  it("reads each condition from the issue's row", () => {
    expect(standing(row)).toEqual(CLEAR);
    expect(standing({ ...row, gone: "transferred", moved_to: MOVED })).toEqual(only("gone"));
    expect(standing({ ...row, repository_left_at: new Date() })).toEqual(only("repository_left"));
    expect(standing({ ...row, status: "closed" })).toEqual(only("closed"));
    expect(standing({ ...row, state: "closed" })).toEqual(only("closed"));
    expect(standing(row, { pullRequestOpen: true })).toEqual(only("pull_request_open"));
  });

  it("never counts an imported issue's upstream leaving the list: it is solved in the user's fork", () => {
    expect(standing({ ...row, is_imported: true, repository_left_at: new Date() }).repositoryLeft).toBe(false);
  });

  it("counts a field the caller did not read as not holding", () => {
    expect(standing({})).toEqual(CLEAR);
  });
});

function holds(s: Standing, c: StandingCondition): boolean {
  return {
    gone: s.gone !== null,
    repository_left: s.repositoryLeft,
    closed: s.closed,
    pull_request_open: s.pullRequestOpen,
  }[c];
}
