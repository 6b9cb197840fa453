import { lazy, Suspense, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Pencil } from "lucide-react";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { solutionQuery, type SolutionView } from "../../api/validations.queries";
import { Button, Spinner } from "../../ui/ui";
import { DiffViewer } from "../diff/DiffViewer";

const FileEditor = lazy(() => import("./FileEditor"));
type File = SolutionView["filesChanged"][number];

export function EditableFile({ solutionId, file, comments }: { solutionId: string; file: File; comments: string }) {
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(file.content);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.validations[":id"].modify.$post({
          param: { id: solutionId },
          json: {
            modifications: [{ filename: file.filename, originalContent: file.content, modifiedContent: text, reason: comments.trim() || "Manual modification" }],
            comments: comments.trim() || undefined,
          },
        }),
      ),
    onSuccess: (body) => {
      qc.setQueryData(solutionQuery(solutionId).queryKey, body);
      toast.success("Solution modified successfully!");
      setEditing(false);
    },
    onError: (err) => toast.error(errorMessage(err, "Modification failed")),
  });
  return (
    <div className="space-y-2">
      <DiffViewer
        filename={file.filename}
        action={file.action}
        oldContent={file.originalContent}
        newContent={file.content}
        actions={
          file.action !== "delete" && !editing ? (
            <Button variant="ghost" className="py-1 text-xs" onClick={() => (setText(file.content), setEditing(true))} aria-label={`Edit This File: ${file.filename}`}>
              <Pencil className="size-3" aria-hidden /> Edit This File
            </Button>
          ) : null
        }
      />
      {editing && (
        <div className="space-y-2 rounded-xl border border-violet-300 p-3 dark:border-violet-800">
          <Suspense fallback={<Spinner label="Loading editor..." />}>
            <FileEditor filename={file.filename} initial={file.content} onChange={setText} />
          </Suspense>
          <div className="flex gap-2">
            <Button onClick={() => save.mutate()} busy={save.isPending} disabled={text === file.content}>
              Save Changes
            </Button>
            <Button variant="secondary" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
