import { createFileRoute } from "@tanstack/react-router";
import { PullRequestsPage } from "../../features/prs/PullRequestsPage";

export const Route = createFileRoute("/_app/pull-requests")({ component: PullRequestsPage });
