import type { PlanId } from "@fixloop/contract";
import type { Db } from "@fixloop/db";
import { insertIssue } from "@fixloop/testkit";
import { createTestStack, type TestStackOptions } from "./stack";

/** Puts a user on `plan` (ENTERPRISE: no monthly limit, so a file can run many solves). */
export async function withPlan(db: Db, userId: string, plan: PlanId): Promise<void> {
  await db
    .insertInto("subscriptions")
    .values({ user_id: userId, plan })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ plan }))
    .execute();
}

export interface SignedInStackOptions extends TestStackOptions {
  /** The GitHub stand-in's account that signs in; default octocat (owner of the seeded repositories). */
  login?: string;
  /** OAuth scopes granted; default public_repo (repository authorization done). */
  scopes?: string[];
  plan?: PlanId;
}

/**
 * The stack, user and repository most files start from: a whole stack (createTestStack), `login`
 * signed in through the real OAuth round trip, and the typed client with that user's session.
 * `issue()` adds an issue of `repo` (default octocat/todo-api, seeded on the stand-in) to the
 * user's list.
 *
 *   const { stack, me, api, issue } = await signedInStack({ plan: "ENTERPRISE" });
 *   const res = await api.ai["generate-solution"].$post({ json: { issueId: (await issue({ number: 3 })).id } });
 */
export async function signedInStack(opts: SignedInStackOptions = {}) {
  const { login = "octocat", scopes = ["public_repo"], plan, ...stackOpts } = opts;
  const stack = await createTestStack(stackOpts);
  const me = await stack.signIn(login, { scopes });
  if (plan) await withPlan(stack.db, me.user._id, plan);
  const issue = (o: Parameters<typeof insertIssue>[2] = {}) =>
    insertIssue(stack.db, me.user._id, { repo: "octocat/todo-api", ...o });
  return { stack, me, api: stack.client(me.headers), issue };
}
