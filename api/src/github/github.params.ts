import { z } from "zod";

export const RepoParams = z.object({
  owner: z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, "Invalid repository owner"),
  repo: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, "Invalid repository name"),
});
