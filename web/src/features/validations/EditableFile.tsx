import { lazy, Suspense, useCallback, useRef, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { GitCompare, Pencil } from "lucide-react";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { solutionQuery, type PreviousVersion, type SolutionView } from "../../api/validations.queries";
import { Badge, Button, Spinner } from "../../ui/ui";
import { DiffViewer } from "../diff/DiffViewer";

const FileEditor = lazy(() => import("./FileEditor"));
type File = SolutionView["filesChanged"][number];

/** The file as the latest refinement found it, when that refinement changed it. */
export interface RefinementChange {
  refinement: number;
  before: PreviousVersion["files"][number] | undefined;
}

export function EditableFile({
  solutionId,
  file,
  comments,
  refined,
  editable = true,
}: {
  solutionId: string;
  file: File;
  comments: string;
  refined?: RefinementChange;
  /** False once the solution is decided: its files are shown, not edited. */
  editable?: boolean;
}) {
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [againstPrevious, setAgainstPrevious] = useState(false);
  const editorBox = useRef<HTMLDivElement>(null);
  const showEditor = useCallback(() => editorBox.current?.scrollIntoView({ block: "nearest" }), []);
  const [text, setText] = useState(file.content);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.validations[":id"].modify.$post({
          param: { id: solutionId },
          json: {
            modifications: [
              {
                filename: file.filename,
                originalContent: file.content,
                modifiedContent: text,
                reason: comments.trim() || "Manual modification",
              },
            ],
            comments: comments.trim() || undefined,
          },
        }),
      ),
    onSuccess: (body) => {
      qc.setQueryData(solutionQuery(solutionId).queryKey, (old) => (old ? { ...old, solution: body.solution } : old));
      toast.success("Solution modified successfully!");
      setEditing(false);
    },
    onError: (err) => toast.error(errorMessage(err, "Modification failed")),
  });
  return (
    <div className="space-y-2">
      <DiffViewer
        filename={file.filename}
        action={againstPrevious ? (refined?.before ? "modify" : "create") : file.action}
        oldContent={againstPrevious ? (refined?.before?.content ?? "") : file.originalContent}
        newContent={file.content}
        oldLabel={againstPrevious ? `before refinement #${refined?.refinement}` : "previous content"}
        marker={
          refined && (
            <span data-testid="refinement-marker">
              <Badge tone="purple">
                {refined.before ? "Changed" : "New"} in refinement #{refined.refinement}
              </Badge>
            </span>
          )
        }
        actions={
          <>
            {refined?.before && (
              <Button
                variant="ghost"
                className="py-1 text-xs"
                aria-pressed={againstPrevious}
                onClick={() => setAgainstPrevious((v) => !v)}
              >
                <GitCompare className="size-3" aria-hidden />{" "}
                {againstPrevious ? "Compare with repository" : "Compare with previous version"}
              </Button>
            )}
            {editable && file.action !== "delete" && !editing && (
              <Button
                variant="ghost"
                className="py-1 text-xs"
                onClick={() => (setText(file.content), setEditing(true))}
                aria-label={`Edit This File: ${file.filename}`}
              >
                <Pencil className="size-3" aria-hidden /> Edit This File
              </Button>
            )}
          </>
        }
      />
      {editing && (
        <div
          ref={editorBox}
          className="scroll-mt-16 space-y-2 rounded-xl border border-violet-300 p-3 dark:border-violet-800"
        >
          <Suspense fallback={<Spinner label="Loading editor..." />}>
            <FileEditor filename={file.filename} initial={file.content} onChange={setText} onReady={showEditor} />
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
