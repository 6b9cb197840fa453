import { ACTIONS, type Action, type Standing } from "@fixloop/contract";
import { AppError } from "../http/errors";

/** Refuses the action when the standing does not allow it, with the contract table's status, code and reason. */
export function assertAllowed(action: Action, standing: Standing): void {
  const allowance = ACTIONS[action](standing);
  if (!allowance.allowed) throw new AppError(allowance.status, allowance.code, allowance.reason);
}
