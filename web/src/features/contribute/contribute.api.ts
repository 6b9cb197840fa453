import { request } from "../../api/errors";

export interface ParsedRef {
  type: "issue" | "repository";
  owner: string;
  repo: string;
  issueNumber: number | null;
}
export interface IssuePreview {
  parsed: ParsedRef;
  repository: { fullName: string; language: string | null; htmlUrl: string; description?: string | null };
  issue: { title: string; number: number; labels: string[]; body: string | null; htmlUrl: string };
  alreadyImported: boolean;
  existingIssueId: string | null;
  warnings?: string[];
}
export interface ImportResult {
  fork: { isNew: boolean; fullName: string };
  issue: { _id: string };
}
type Ref = { owner: string; repo: string; issueNumber: number };

/** Contribution calls, typed from the documented shapes (spec §3). */
export const contributionsApi = {
  parse: (url: string) => request<{ parsed: ParsedRef }>("/contributions/parse-url", { method: "POST", json: { url } }),
  fetchIssue: (ref: Ref) => request<IssuePreview>("/contributions/fetch-issue", { method: "POST", json: ref }),
  importIssue: (ref: Ref) => request<ImportResult>("/contributions/import-issue", { method: "POST", json: ref }),
};
