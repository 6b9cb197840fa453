import type { MouseEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { meQuery } from "../../api/auth.queries";

export const authorizeReposHref = (includePrivate: boolean) => `/api/auth/github/repos?private=${includePrivate}`;

/**
 * Click handler for the "Authorize repository access" link. The grant needs a live session; when it
 * has expired since the page loaded, say so (spec §5 'Please login first') instead of landing on a 401.
 */
export function useAuthorizeReposClick() {
  const qc = useQueryClient();
  return (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const href = e.currentTarget.href;
    e.preventDefault();
    void qc
      .fetchQuery({ ...meQuery(), staleTime: 0 })
      .catch(() => null)
      .then((user) => {
        if (user) window.location.assign(href);
        else toast.error("Please login first");
      });
  };
}
