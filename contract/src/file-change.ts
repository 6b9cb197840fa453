import { z } from "zod";

/** One changed file of a solution (solutions.files_changed, a generation's files): its whole text before and after. */
export const FileChange = z.object({
  filename: z.string(),
  action: z.enum(["create", "modify", "delete"]),
  content: z.string(),
  originalContent: z.string(),
});
export type FileChange = z.infer<typeof FileChange>;
