import { z } from "zod";

/** Malformed ids are answered 404 by the lookup, like ids of other users' pull requests. */
export const PullRequestIdParam = z.object({ id: z.string().max(100) });

/** Which review comments to address: the listed ones, or every open one (`all`). */
export const AddressReviewBody = z.object({
  commentIds: z.array(z.string().min(1).max(200)).max(100).optional(),
  all: z.boolean().optional(),
});
export type AddressReviewBody = z.infer<typeof AddressReviewBody>;
