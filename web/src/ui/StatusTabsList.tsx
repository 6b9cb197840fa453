import { useState, type ReactNode } from "react";
import { errorMessage } from "../api/errors";
import { EmptyState, Spinner } from "./ui";
import { Tabs } from "./Tabs";

export type StatusTab = "open" | "closed" | "all";

/**
 * The Open / Closed / All list the Issues and Pull Requests pages share: tabs with counts, then
 * loading, error and per-tab empty states, then one card per item.
 */
export function StatusTabsList<T>(props: {
  idBase: string;
  label: string;
  /** Undefined while the first load is pending or after it failed. */
  items: T[] | undefined;
  isOpen: (item: T) => boolean;
  keyOf: (item: T) => string;
  render: (item: T) => ReactNode;
  empty: Record<StatusTab, string>;
  query: { isPending: boolean; isError: boolean; error: unknown };
  loading: string;
  failed: string;
}) {
  const [tab, setTab] = useState<StatusTab>("open");
  const all = props.items ?? [];
  const open = all.filter(props.isOpen);
  const closed = all.filter((i) => !props.isOpen(i));
  const shown = tab === "open" ? open : tab === "closed" ? closed : all;
  return (
    <>
      <Tabs
        idBase={props.idBase}
        label={props.label}
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "open", label: "Open", count: open.length },
          { id: "closed", label: "Closed", count: closed.length },
          { id: "all", label: "All", count: all.length },
        ]}
      />
      <div id={`${props.idBase}-panel`} role="tabpanel" aria-labelledby={`${props.idBase}-tab-${tab}`}>
        {props.query.isPending && <Spinner label={props.loading} />}
        {props.query.isError && <EmptyState title={props.failed}>{errorMessage(props.query.error, "")}</EmptyState>}
        {props.items && shown.length === 0 && <EmptyState title={props.empty[tab]} />}
        <ul className="space-y-3">
          {shown.map((i) => (
            <li key={props.keyOf(i)}>{props.render(i)}</li>
          ))}
        </ul>
      </div>
    </>
  );
}
