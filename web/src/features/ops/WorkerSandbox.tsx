import { Badge, type Tone } from "../../ui/ui";
import type { OpsWorker } from "./ops.queries";

type Check = NonNullable<OpsWorker["sandbox"]>;

const WALL_LABEL: Record<string, string> = {
  network: "No route to the host",
  "host-files": "No host files",
  userns: "No user namespaces inside",
  memory: "Memory limit",
  processes: "Process limit",
  disk: "Disk limit",
  egress: "Proxy refuses private addresses",
};

function verdict(c: Check): { tone: Tone; text: string } {
  if (c.mode === "off-explicit") return { tone: "yellow", text: "off on purpose: tests not run" };
  if (c.mode === "off-missing") return { tone: "red", text: "no sandbox: takes no solve" };
  return c.ok ? { tone: "green", text: "walls held" } : { tone: "red", text: "walls failing: takes no solve" };
}

/** A worker's last sandbox self-check: backend, versions and each wall held or missing. */
export function WorkerSandbox({ sandbox }: { sandbox: Check }) {
  const v = verdict(sandbox);
  const walls = Object.entries(sandbox.walls);
  return (
    <section aria-label="Sandbox self-check" className="mt-3 border-t border-slate-200 pt-3 dark:border-slate-800">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-medium">
          Sandbox <span className="font-mono">{sandbox.backend}</span>
        </p>
        <Badge tone={v.tone}>{v.text}</Badge>
      </div>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        {[sandbox.versions.bwrap, sandbox.versions.kernel, sandbox.totals && `totals: ${sandbox.totals}`]
          .filter(Boolean)
          .join(" · ")}
      </p>
      {sandbox.mode === "on" && walls.length > 0 && (
        <ul className="mt-2 grid gap-1 text-sm sm:grid-cols-2">
          {walls.map(([wall, state]) => (
            <li key={wall} className="flex min-w-0 items-start gap-1.5">
              <span
                aria-hidden
                className={state === "held" ? "text-green-700 dark:text-green-400" : "text-red-700 dark:text-red-400"}
              >
                {state === "held" ? "✓" : "✗"}
              </span>
              <span className="min-w-0">
                {WALL_LABEL[wall] ?? wall}
                <span className="sr-only">: {state}</span>
                {state === "missing" && sandbox.detail[wall] && (
                  <span className="block break-words text-xs text-red-700 dark:text-red-400">
                    {sandbox.detail[wall]}
                  </span>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
