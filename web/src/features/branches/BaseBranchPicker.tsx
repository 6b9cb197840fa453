import { useQuery } from "@tanstack/react-query";
import { errorMessage } from "../../api/errors";
import { issueBranchesQuery } from "./branches.queries";

/**
 * The base branch: the workspace is read there, the tests run there and the pull request targets
 * it. `value` "" stands for the repository's default branch.
 */
export function BaseBranchPicker({
  issueId,
  value,
  onChange,
  disabled,
  id = "base-branch",
}: {
  issueId: string;
  value: string;
  onChange: (branch: string) => void;
  disabled?: boolean;
  id?: string;
}) {
  const branches = useQuery(issueBranchesQuery(issueId));
  const list = branches.data?.branches ?? [];
  const fallback = branches.data?.defaultBranch ?? "";
  const current = value || fallback;
  return (
    <div className="min-w-0 sm:w-44">
      <label htmlFor={id} className="block text-sm font-medium">
        Base branch
      </label>
      <select
        id={id}
        value={current}
        disabled={disabled || !branches.data}
        onChange={(e) => onChange(e.target.value)}
        className="mt-1 w-full truncate rounded-lg border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-900"
      >
        {!branches.data && <option value="">{branches.isError ? "Default branch" : "Loading branches…"}</option>}
        {list.map((b) => (
          <option key={b} value={b}>
            {b === fallback ? `${b} (default)` : b}
          </option>
        ))}
      </select>
      {branches.isError && (
        <p role="alert" className="mt-1 text-xs text-red-700 dark:text-red-400">
          {errorMessage(branches.error, "Could not list the branches")}; the default branch is used
        </p>
      )}
    </div>
  );
}
