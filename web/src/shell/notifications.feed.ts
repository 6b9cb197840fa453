import { useQuery } from "@tanstack/react-query";
import { notificationsQuery } from "../api/notifications.queries";
import { pullRequestsQuery } from "../api/prs.queries";
import { pendingValidationsQuery } from "../api/validations.queries";

export interface FeedItem {
  id: string;
  kind: string;
  message: string;
  link: string | null;
  at: string;
}

const SEEN_KEY = "notifications-seen-at";
export const seenAt = () => localStorage.getItem(SEEN_KEY) ?? "";
export const markSeen = () => localStorage.setItem(SEEN_KEY, new Date().toISOString());

/** Readable labels of the server's notice types (`usage_80` read as "USAGE 80"). */
const NOTICE_KIND: Record<string, string> = { usage_80: "usage" };

const PR_VERB = { open: "opened", merged: "merged", closed: "closed" } as const;

/**
 * The bell's feed: the server's notices (plan, usage) plus the user's run and pull-request events,
 * read from their solutions (a finished run) and pull requests.
 */
export function useNotificationFeed(): { items: FeedItem[]; isError: boolean } {
  const notices = useQuery(notificationsQuery());
  const prs = useQuery({ ...pullRequestsQuery(), refetchInterval: 60_000 });
  const solutions = useQuery({ ...pendingValidationsQuery(), refetchInterval: 60_000 });
  const items: FeedItem[] = [
    ...(notices.data?.notifications ?? []).map((n) => ({
      id: n.id,
      kind: NOTICE_KIND[n.type] ?? n.type.replaceAll("_", " "),
      message: n.message,
      link: n.link,
      at: n.createdAt,
    })),
    ...(prs.data?.pullRequests ?? []).map((p) => ({
      id: `pr-${p._id}`,
      kind: "pull request",
      message: `#${p.prNumber} ${PR_VERB[p.status]} on ${p.repoFullName}: ${p.title}`,
      link: "/pull-requests",
      at: p.syncedAt && p.status !== "open" ? p.syncedAt : p.createdAt,
    })),
    ...(solutions.data?.solutions ?? []).map((s) => ({
      id: `solution-${s._id}`,
      kind: "run completed",
      message: `Solution ready for review: ${s.issueId.title}`,
      link: `/validations/${s._id}`,
      at: s.createdAt,
    })),
  ];
  items.sort((a, b) => b.at.localeCompare(a.at));
  return { items: items.slice(0, 20), isError: notices.isError && prs.isError };
}
