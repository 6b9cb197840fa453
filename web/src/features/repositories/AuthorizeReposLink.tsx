import { buttonClass } from "../../ui/ui";
import { authorizeReposHref, useAuthorizeReposClick } from "./authorize-repos";

/** The "Authorize repository access" button: the OAuth upgrade to public_repo (or repo). */
export function AuthorizeReposLink({
  includePrivate = false,
  variant = "primary",
  className = "",
}: {
  includePrivate?: boolean;
  variant?: "primary" | "secondary";
  className?: string;
}) {
  const onAuthorize = useAuthorizeReposClick();
  return (
    <a
      href={authorizeReposHref(includePrivate)}
      onClick={onAuthorize}
      className={`${buttonClass(variant)} ${className}`}
    >
      Authorize repository access
    </a>
  );
}
