import { sql, type SqlBool } from "kysely";

/**
 * The runs a user asked for (solve, refine), as opposed to a backtest's solves of past issues:
 * those follow their backtest, not their issue. They are not stopped with their issue (gone from
 * GitHub, its repository leaving the list: the backtest's own end stops them), and one a spending
 * cap stopped is not resumed (the backtest is run again instead). The one place that rule is said.
 */
export const askedByUser = sql<SqlBool>`solve_runs.kind <> 'backtest'`;

/** A backtest's solve of a past issue: it makes no solution and leaves its issue as it is. */
export const ofBacktest = sql<SqlBool>`solve_runs.kind = 'backtest'`;
