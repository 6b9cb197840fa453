import { Link } from "@tanstack/react-router";
import { ArrowLeft } from "lucide-react";
import { ApiError } from "../api/errors";
import { EmptyState, buttonClass } from "./ui";

type ListRoute = "/issues" | "/validations" | "/pull-requests" | "/dashboard";

/**
 * A detail page whose item failed to load: one message (404 → `notFound`, otherwise `failed`)
 * and a button back to the list it came from.
 */
export function LoadFailure({
  error,
  notFound,
  failed,
  to,
  label,
}: {
  error: unknown;
  notFound: string;
  failed: string;
  to: ListRoute;
  label: string;
}) {
  const missing = error instanceof ApiError && (error.status === 404 || error.status === 400);
  return (
    <div role="alert">
      <EmptyState title={missing ? notFound : failed}>
        <Link to={to} className={buttonClass("secondary")}>
          <ArrowLeft className="size-4" aria-hidden /> {label}
        </Link>
      </EmptyState>
    </div>
  );
}
