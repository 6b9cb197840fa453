import { z } from "zod";
import { githubLogin, githubRepoName } from "@fixloop/contract";

export const RepoParams = z.object({
  owner: githubLogin(),
  repo: githubRepoName(),
});
