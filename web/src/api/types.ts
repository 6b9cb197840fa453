import type { InferResponseType } from "hono/client";
import type { api } from "./client";

/** Shapes the API answers with, inferred from its routes. */
export type User = InferResponseType<typeof api.auth.me.$get, 200>["user"];
export type Issue = InferResponseType<typeof api.issues.$get, 200>["issues"][number];
export type IssueStatus = Issue["status"];
export type PullRequest = InferResponseType<typeof api.prs.$get, 200>["pullRequests"][number];
export type AiModel = InferResponseType<typeof api.ai.models.$get, 200>["allModels"][number];
export type PullRequestTimelineEntry = InferResponseType<
  (typeof api.prs)[":id"]["timeline"]["$get"],
  200
>["timeline"][number];
