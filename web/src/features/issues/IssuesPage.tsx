import { useState } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import type { IssueListTab } from "@fixloop/contract";
import { issuePagesQuery } from "../../api/issues.queries";
import { errorMessage } from "../../api/errors";
import { Button, EmptyState, PageHeader, Spinner } from "../../ui/ui";
import { Tabs } from "../../ui/Tabs";
import { IssueCard } from "./IssueCard";

const EMPTY = { open: "No open issues", closed: "No closed issues", all: "No issues found" };

/**
 * The user's issues by tab, filtered by the API and read a page at a time: "Load more" asks for
 * the next page. The tabs' counts come with each tab's first page.
 */
export function IssuesPage() {
  const [tab, setTab] = useState<IssueListTab>("open");
  const list = useInfiniteQuery(issuePagesQuery(tab));
  const items = list.data?.pages.flatMap((p) => p.issues);
  const counts = list.data?.pages[0]?.counts;
  return (
    <>
      <PageHeader title="Issues">
        <Button
          variant="secondary"
          onClick={() => void list.refetch()}
          busy={list.isFetching && !list.isFetchingNextPage}
        >
          <RefreshCw className="size-4" aria-hidden /> Refresh
        </Button>
      </PageHeader>
      <Tabs
        idBase="issues"
        label="Issue status"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "open", label: "Open", count: counts?.open },
          { id: "closed", label: "Closed", count: counts?.closed },
          { id: "all", label: "All", count: counts?.all },
        ]}
      />
      <div id="issues-panel" role="tabpanel" aria-labelledby={`issues-tab-${tab}`}>
        {list.isPending && <Spinner label="Loading issues..." />}
        {list.isError && !list.isFetchNextPageError && (
          <EmptyState title="Failed to load issues">{errorMessage(list.error, "")}</EmptyState>
        )}
        {items && items.length === 0 && <EmptyState title={EMPTY[tab]} />}
        <ul className="space-y-3">
          {items?.map((i) => (
            <li key={i._id}>
              <IssueCard issue={i} />
            </li>
          ))}
        </ul>
        {list.hasNextPage && (
          <div className="mt-4 flex justify-center">
            <Button
              variant="secondary"
              onClick={() => void list.fetchNextPage()}
              busy={list.isFetchingNextPage}
              disabled={list.isFetchingNextPage}
            >
              {list.isFetchingNextPage ? "Loading more issues..." : "Load more issues"}
            </Button>
          </div>
        )}
        {list.isFetchNextPageError && (
          <p role="alert" className="mt-3 text-center text-sm text-red-800 dark:text-red-300">
            Could not load more issues: {errorMessage(list.error, "try again")}
          </p>
        )}
        {items && items.length > 0 && !list.hasNextPage && (
          <p className="mt-4 text-center text-sm text-slate-600 dark:text-slate-400" data-testid="issues-end">
            {items.length === 1 ? "That is the only issue here." : `All ${items.length} issues shown.`}
          </p>
        )}
      </div>
    </>
  );
}
