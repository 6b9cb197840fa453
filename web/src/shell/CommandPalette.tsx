import { useEffect, useMemo, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { issueSearchQuery } from "../api/issues.queries";
import { repositoriesQuery } from "../api/repositories.queries";
import { Dialog } from "../ui/Dialog";
import { NAV_ITEMS } from "./nav";
import { InlineMarkdown } from "../ui/InlineMarkdown";

interface Entry {
  id: string;
  group: "Pages" | "Issues" | "Repositories";
  label: string;
  hint?: string;
  go: () => void;
}

export function CommandPalette({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const [text, setText] = useState("");
  const [index, setIndex] = useState(0);
  // Issues are searched by the API (a user may have more than one page of them), a moment after typing stops.
  const [searched, setSearched] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setSearched(text.trim()), 200);
    return () => clearTimeout(t);
  }, [text]);
  const issues = useQuery({ ...issueSearchQuery(searched), enabled: open, placeholderData: keepPreviousData });
  const repos = useQuery({ ...repositoriesQuery(), enabled: open });

  const entries = useMemo<Entry[]>(() => {
    const pages: Entry[] = [
      ...NAV_ITEMS.map((n) => ({
        id: n.to,
        group: "Pages" as const,
        label: n.label,
        go: () => void navigate({ to: n.to }),
      })),
      {
        id: "/profile-settings",
        group: "Pages",
        label: "Profile Settings",
        go: () => void navigate({ to: "/profile-settings" }),
      },
      { id: "/pricing", group: "Pages", label: "Pricing", go: () => void navigate({ to: "/pricing" }) },
    ];
    const iss: Entry[] = (issues.data?.issues ?? []).map((i) => ({
      id: `issue-${i._id}`,
      group: "Issues",
      label: i.title,
      hint: `${i.repoFullName}#${i.issueNumber}`,
      go: () => void navigate({ to: "/issues/$issueId/solve", params: { issueId: i._id } }),
    }));
    const rps: Entry[] = (repos.data?.repositories ?? []).map((r) => ({
      id: `repo-${r._id}`,
      group: "Repositories",
      label: r.fullName,
      hint: r.language ?? undefined,
      go: () => void navigate({ to: "/repositories" }),
    }));
    const q = text.trim().toLowerCase();
    const all = [...pages, ...iss, ...rps];
    return (q ? all.filter((e) => `${e.label} ${e.hint ?? ""}`.toLowerCase().includes(q)) : all).slice(0, 30);
  }, [issues.data, repos.data, text, navigate]);

  const choose = (e: Entry | undefined) => {
    if (!e) return;
    onClose();
    setText("");
    e.go();
  };

  return (
    <Dialog open={open} onClose={onClose} title="Command palette">
      <input
        data-autofocus
        role="combobox"
        aria-expanded="true"
        aria-controls="palette-list"
        aria-activedescendant={entries[index] ? `palette-${index}` : undefined}
        aria-label="Search issues, repositories and pages"
        placeholder="Search issues, repos..."
        value={text}
        onChange={(e) => (setText(e.target.value), setIndex(0))}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setIndex((i) => Math.min(i + 1, entries.length - 1));
          }
          if (e.key === "ArrowUp") {
            e.preventDefault();
            setIndex((i) => Math.max(i - 1, 0));
          }
          if (e.key === "Enter") {
            e.preventDefault();
            choose(entries[index]);
          }
        }}
        className="w-full rounded-lg border border-slate-300 bg-transparent px-3 py-2 dark:border-slate-600"
      />
      <ul id="palette-list" role="listbox" aria-label="Results" className="mt-3 max-h-80 overflow-y-auto">
        {entries.length === 0 && <li className="p-3 text-sm text-slate-600 dark:text-slate-400">No matches</li>}
        {entries.map((e, i) => (
          <li
            key={e.id}
            id={`palette-${i}`}
            role="option"
            aria-selected={i === index}
            onMouseEnter={() => setIndex(i)}
            onClick={() => choose(e)}
            className={`flex cursor-pointer items-center justify-between gap-2 rounded-md px-3 py-2 text-sm ${i === index ? "bg-violet-100 dark:bg-violet-900/40" : ""}`}
          >
            <span className="truncate">
              <InlineMarkdown>{e.label}</InlineMarkdown>
            </span>
            <span className="shrink-0 text-xs text-slate-600 dark:text-slate-400">{e.hint ?? e.group}</span>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
