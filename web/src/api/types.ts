/** Response shapes of endpoints documented in the API issues; replaced by AppType inference as routes land. */
export interface User {
  _id: string;
  username: string;
  email: string | null;
  avatarUrl: string | null;
  createdAt: string;
}
export type IssueStatus = "pending" | "open" | "analyzing" | "solved" | "pr_created" | "failed" | "closed";
export interface Issue {
  _id: string;
  title: string;
  body: string | null;
  issueNumber: number;
  repoFullName: string;
  labels: string[];
  status: IssueStatus;
  createdAt: string;
  htmlUrl: string;
}
export interface Repository {
  _id: string;
  name: string;
  fullName: string;
  description: string | null;
  isPrivate: boolean;
  language: string | null;
  htmlUrl: string;
}
export interface AiModel {
  id: string;
  name: string;
  description: string;
  provider: string;
  allowed: boolean;
  sandbox?: boolean;
}
export interface FileChange {
  filename: string;
  action: "create" | "modify" | "delete";
  content: string;
  originalContent: string;
}
export interface Solution {
  _id: string;
  issueId: { _id: string; title: string; issueNumber: number } | string;
  issue?: { _id: string; title: string; issueNumber: number; repoFullName?: string };
  analysis: string;
  proposedSolution: string;
  aiModel: string;
  confidence?: number | null;
  filesChanged: FileChange[];
  status?: string;
  createdAt?: string;
  metadata?: {
    repository?: string;
    classification?: { type?: string; complexity?: string };
    validation?: {
      riskLevel?: "low" | "medium" | "high" | "critical";
      stats?: { filesChanged: number; linesAdded: number; linesRemoved: number; percentageChanged: number; newFiles: number; deletedFiles: number };
      warnings?: string[];
      suggestions?: string[];
    };
    riskScore?: number;
    testSuggestions?: string[];
    refinementCount?: number;
    advancedValidation?: { score?: number; errors?: unknown[]; warnings?: { message: string }[] };
  };
}
export interface PullRequest {
  _id: string;
  title: string;
  prNumber: number;
  repoFullName: string;
  branchName: string;
  baseBranch: string;
  status: "open" | "closed" | "merged";
  createdAt: string;
  htmlUrl: string;
  metadata?: { labels?: string[]; hasBreakingChanges?: boolean; generatedWithGuidelines?: boolean };
}
export type StepId = "analyzing" | "context" | "dependencies" | "generating" | "validating";
export type StepStatus = "pending" | "running" | "completed" | "failed" | "skipped";
export interface StepDetail {
  files: string[];
  info: string[];
  warnings: string[];
  score?: number;
}
export interface Notification {
  _id?: string;
  id?: string;
  type: string;
  title?: string;
  message?: string;
  link?: string;
  createdAt: string;
}
export interface ApiToken {
  _id?: string;
  id?: string;
  name: string;
  prefix?: string;
  createdAt: string;
  lastUsedAt?: string | null;
}
