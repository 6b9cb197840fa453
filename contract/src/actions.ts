import { z } from "zod";

/** What can be done with an issue; `standing.ts` says which of them its standing allows. */
export const ACTION_NAMES = ["solve", "resume", "refine", "address", "approve", "push"] as const;
export const Action = z.enum(ACTION_NAMES);
export type Action = z.infer<typeof Action>;

/** An action as a view serves it: allowed, or why not (with where a transferred issue went, when known). */
export const ActionView = z.discriminatedUnion("allowed", [
  z.object({ allowed: z.literal(true) }),
  z.object({ allowed: z.literal(false), code: z.string(), reason: z.string(), movedTo: z.string().optional() }),
]);
export type ActionView = z.infer<typeof ActionView>;

/** Every action of an issue, as views serve them (the issue, its run, its solution, its pull request). */
export const ActionViews = z.record(Action, ActionView);
export type ActionViews = z.infer<typeof ActionViews>;
