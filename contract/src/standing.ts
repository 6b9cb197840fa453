import { type IssueGone, OPEN_PULL_REQUEST_MESSAGE } from "./domain/statuses";
import { REPOSITORY_ACCESS_LOST } from "./pipeline";
import { ACTION_NAMES, type Action, type ActionView, type ActionViews } from "./actions";

export { ACTION_NAMES, Action, ActionView, ActionViews } from "./actions";

/**
 * Whether an issue may be acted on, decided once. Every entry point (the API's routes, the label
 * trigger's solve, the run and pull-request jobs at job time) asks `ACTIONS[action](standing(issue))`;
 * the views (issue, run, solution, pull request) serve `actionsOf(...)` and the web shows the
 * refusal's reason in one notice and offers only what is allowed.
 *
 * What each action refuses, by what is known of the issue (checked in this order; the first that
 * holds answers):
 *
 * | condition         | holds when                                    | solve | resume | refine | address | approve | push |
 * |-------------------|-----------------------------------------------|-------|--------|--------|---------|---------|------|
 * | gone              | GitHub deleted or transferred the issue        | 1     | 1      |        |         | 2       |      |
 * | repository_left   | its repository left the user's list (own)     | 2     |        | 1      | 1       | 1       | 1    |
 * | closed            | the issue is closed (Fixloop's or GitHub's)    | 3     |        |        |         |         |      |
 * | pull_request_open | a pull request of Fixloop's is open for it     | 4     |        |        |         | 3       |      |
 *
 * A run a worker takes asks `resume` too (a queued or interrupted run carrying on is resumed): a
 * gone issue ends it cancelled, in the run's own words. Not in the table, on purpose: an imported
 * issue never has `repository_left` (it is solved in the user's fork, whatever becomes of the
 * upstream in their list); refining and pushing a solution of a closed issue or one with an open
 * pull request is what addressing a review is.
 * The other refusals of those routes (quota, model, plan, solution status) are not about the issue.
 */
export const STANDING_CONDITIONS = ["gone", "repository_left", "closed", "pull_request_open"] as const;
export type StandingCondition = (typeof STANDING_CONDITIONS)[number];

/** What is known of an issue that decides what may be done with it. */
export interface Standing {
  gone: IssueGone | null;
  /** Where a transferred issue went (its address on GitHub), when known. */
  movedTo: string | null;
  repositoryLeft: boolean;
  closed: boolean;
  pullRequestOpen: boolean;
}

/** An issue row as the database reads it; a field a caller did not read counts as not holding. */
export interface StandingInput {
  gone?: IssueGone | null;
  moved_to?: string | null;
  status?: string;
  state?: string;
  is_imported?: boolean;
  repository_left_at?: Date | string | null;
}

/** An issue's standing; `pullRequestOpen` is read apart (whose pull request counts depends on the action). */
export function standing(issue: StandingInput, known: { pullRequestOpen?: boolean } = {}): Standing {
  return {
    gone: issue.gone ?? null,
    movedTo: issue.moved_to ?? null,
    repositoryLeft: issue.is_imported !== true && issue.repository_left_at != null,
    closed: issue.status === "closed" || issue.state === "closed",
    pullRequestOpen: known.pullRequestOpen === true,
  };
}

export interface Refusal {
  allowed: false;
  condition: StandingCondition;
  /** The HTTP status an entry point answers it with. */
  status: 403 | 409 | 410;
  code: string;
  reason: string;
}
export type Allowance = { allowed: true } | Refusal;

const REFUSED_BY: Record<Action, readonly StandingCondition[]> = {
  solve: ["gone", "repository_left", "closed", "pull_request_open"],
  resume: ["gone"],
  refine: ["repository_left"],
  address: ["repository_left"],
  approve: ["repository_left", "gone", "pull_request_open"],
  push: ["repository_left"],
};

const HOLDS: Record<StandingCondition, (s: Standing) => boolean> = {
  gone: (s) => s.gone !== null,
  repository_left: (s) => s.repositoryLeft,
  closed: (s) => s.closed,
  pull_request_open: (s) => s.pullRequestOpen,
};

/** What a repository that left the list stops, in the words of each action. */
const ACCESS_LOST_STOPS: Record<Action, string> = {
  solve: "it cannot be solved",
  resume: "it cannot be solved",
  refine: "its solution cannot be refined",
  address: "its solution cannot be refined to address this review",
  approve: "its pull request cannot be opened",
  push: "no revision can be pushed to its pull request",
};

const where = (s: Standing) => (s.movedTo ? ` (${s.movedTo})` : "");

function goneRefusal(action: Action, s: Standing): Omit<Refusal, "allowed" | "condition"> {
  // The pull request is what an approval opens: said as the pull-request job says it.
  if (action === "approve")
    return {
      status: 410,
      code: "pull_request.issue_gone",
      reason:
        s.gone === "deleted"
          ? "The issue was deleted on GitHub; no pull request is opened for it"
          : `The issue was transferred to another repository on GitHub${where(s)}; no pull request is opened for it here`,
    };
  return s.gone === "deleted"
    ? { status: 410, code: "issue.deleted", reason: "This issue was deleted on GitHub, so it cannot be solved" }
    : {
        status: 410,
        code: "issue.transferred",
        reason: `This issue was transferred to another repository on GitHub${where(s)}; import it from there to solve it`,
      };
}

const REFUSAL: Record<StandingCondition, (action: Action, s: Standing) => Omit<Refusal, "allowed" | "condition">> = {
  gone: goneRefusal,
  repository_left: (action) => ({
    status: 403,
    // The code a run stopped for the same reason ends with; 403: GitHub no longer lets the user at it.
    code: REPOSITORY_ACCESS_LOST.code,
    reason: `You no longer have access to this issue's repository on GitHub, so ${ACCESS_LOST_STOPS[action]}`,
  }),
  closed: () => ({
    status: 409,
    code: "issue.closed",
    reason: "This issue is closed; reopen it to generate a solution",
  }),
  pull_request_open: () => ({ status: 409, code: "issue.pull_request_open", reason: OPEN_PULL_REQUEST_MESSAGE }),
};

function allowance(action: Action): (s: Standing) => Allowance {
  return (s) => {
    const condition = REFUSED_BY[action].find((c) => HOLDS[c](s));
    return condition ? { allowed: false, condition, ...REFUSAL[condition](action, s) } : { allowed: true };
  };
}

/** What each action allows of an issue of this standing. */
export const ACTIONS = Object.fromEntries(ACTION_NAMES.map((a) => [a, allowance(a)])) as Record<
  Action,
  (s: Standing) => Allowance
>;

/** Every action of an issue of this standing, as views serve them; a refusal for a transfer says where the issue went. */
export function actionsOf(s: Standing): ActionViews {
  const view = (a: Allowance): ActionView => {
    if (a.allowed) return { allowed: true };
    const moved = a.condition === "gone" && s.gone === "transferred" && s.movedTo ? { movedTo: s.movedTo } : {};
    return { allowed: false, code: a.code, reason: a.reason, ...moved };
  };
  return Object.fromEntries(ACTION_NAMES.map((a) => [a, view(ACTIONS[a](s))])) as ActionViews;
}
