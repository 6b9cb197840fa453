import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { pullRequestsQuery } from "../../api/prs.queries";
import { Button, PageHeader } from "../../ui/ui";
import { StatusTabsList } from "../../ui/StatusTabsList";
import { failureToast } from "../../ui/failure-toast";
import { PullRequestCard } from "./PullRequestCard";

const EMPTY = { open: "No open pull requests", closed: "No closed pull requests", all: "No pull requests yet" };

export function PullRequestsPage() {
  const qc = useQueryClient();
  const q = useQuery(pullRequestsQuery());
  const sync = useMutation({
    mutationFn: () => unwrap(api.prs.sync.$post()),
    onSuccess: () => void qc.invalidateQueries({ queryKey: pullRequestsQuery().queryKey }),
    onError: (err) => failureToast("Failed to sync pull requests", err),
  });
  return (
    <>
      <PageHeader title="Pull Requests">
        <Button variant="secondary" onClick={() => sync.mutate()} busy={sync.isPending || q.isFetching}>
          <RefreshCw className="size-4" aria-hidden /> Sync Status
        </Button>
      </PageHeader>
      <StatusTabsList
        idBase="prs"
        label="Pull request status"
        items={q.data?.pullRequests}
        isOpen={(p) => p.status === "open"}
        keyOf={(p) => p._id}
        empty={EMPTY}
        query={q}
        loading="Loading pull requests..."
        failed="Failed to load pull requests"
        render={(p) => <PullRequestCard p={p} />}
      />
    </>
  );
}
