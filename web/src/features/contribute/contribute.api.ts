import type { InferResponseType } from "hono/client";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";

const c = api.contributions;
export type IssuePreview = InferResponseType<(typeof c)["fetch-issue"]["$post"], 200>;
export type ContributionFinding = IssuePreview["findings"][number];
type Ref = { owner: string; repo: string; issueNumber: number };

export const contributionsApi = {
  parse: (url: string) => unwrap(c["parse-url"].$post({ json: { url } })),
  fetchIssue: (json: Ref) => unwrap(c["fetch-issue"].$post({ json })),
  importIssue: (json: Ref & { acknowledgeWarnings: boolean }) => unwrap(c["import-issue"].$post({ json })),
};
