import type { ReactNode } from "react";
import { CheckCircle2, GitFork } from "lucide-react";
import type { IssuePreview } from "./contribute.api";

/** Where the fix will be pushed: a fork the import creates, the user's existing fork, or their own repository. */
export function ForkNote({ fork, upstream }: { fork: IssuePreview["fork"]; upstream: string }) {
  if (fork.state === "required")
    return (
      <Note icon={<GitFork className="size-5 shrink-0 text-violet-700 dark:text-violet-300" aria-hidden />}>
        <strong>Fork Required.</strong> Fixloop forks {upstream} into your account; the pull request goes from your fork
        to the original repository.
      </Note>
    );
  return (
    <Note icon={<CheckCircle2 className="size-5 shrink-0 text-green-700 dark:text-green-300" aria-hidden />}>
      {fork.state === "exists" ? (
        <>
          <strong>Fork ready.</strong> Your fork {fork.fullName} is used; the pull request goes from it to {upstream}.
        </>
      ) : (
        <>
          <strong>Your repository.</strong> No fork is needed: the pull request is opened in {upstream}.
        </>
      )}
    </Note>
  );
}

function Note({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <div className="flex gap-3 rounded-xl border border-violet-300 bg-violet-50 p-4 text-sm dark:border-violet-800 dark:bg-violet-950/40">
      {icon}
      <p>{children}</p>
    </div>
  );
}
