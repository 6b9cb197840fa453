import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { errorMessage } from "../../api/errors";
import { Button, Card } from "../../ui/ui";
import { postManifestToGithub, type GithubAppStatus } from "./github-app.queries";

const input =
  "w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-600 dark:bg-slate-900";

/** What GitHub will be asked for, from the manifest Fixloop sends. */
function ManifestSummary({ m }: { m: GithubAppStatus["manifest"] }) {
  const rows: Array<[string, string]> = [
    ["Webhook URL", m.hook_attributes.url],
    ["Setup URL", m.setup_url],
    ["Callback URL", m.callback_urls.join(", ")],
  ];
  return (
    <div className="mt-4 text-sm">
      <p className="font-medium">GitHub will be asked for</p>
      <ul className="mt-2 flex flex-wrap gap-1.5" aria-label="Permissions">
        {Object.entries(m.default_permissions).map(([k, v]) => (
          <li key={k} className="rounded-md bg-slate-100 px-2 py-0.5 text-xs dark:bg-slate-800">
            {k.replace(/_/g, " ")}: <strong>{v}</strong>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-slate-700 dark:text-slate-300">
        Events: {m.default_events.map((e) => e.replace(/_/g, " ")).join(", ")}; installation events always.
      </p>
      <dl className="mt-3 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-slate-600 dark:text-slate-400">{k}</dt>
            <dd className="min-w-0 break-all font-mono text-xs leading-5">{v}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-slate-700 dark:text-slate-300">
        Private: only the account that owns it can install it. An App that comes back with any other permission is
        refused.
      </p>
    </div>
  );
}

/** The form that sends GitHub the App manifest: a name, optionally an organisation to own the App. */
export function GithubAppCreate({ s }: { s: GithubAppStatus }) {
  const [name, setName] = useState("Fixloop");
  const [org, setOrg] = useState("");
  const go = useMutation({
    mutationFn: () => postManifestToGithub({ name: name.trim(), ...(org.trim() ? { organization: org.trim() } : {}) }),
  });
  return (
    <Card>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        GitHub creates the App from Fixloop's manifest and sends you back here; Fixloop stores its id, private key and
        secrets encrypted.{s.stored ? " A new App replaces the one created before." : ""}
      </p>
      <form
        className="mt-4 grid gap-3 sm:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) go.mutate();
        }}
      >
        <label className="grid gap-1 text-sm">
          <span className="font-medium">App name</span>
          <input
            className={input}
            value={name}
            maxLength={34}
            required
            onChange={(e) => setName(e.target.value)}
            aria-describedby="app-name-help"
          />
          <span id="app-name-help" className="text-xs text-slate-600 dark:text-slate-400">
            Unique on GitHub, at most 34 characters.
          </span>
        </label>
        <label className="grid gap-1 text-sm">
          <span className="font-medium">Organization (optional)</span>
          <input
            className={input}
            value={org}
            placeholder="Your account when empty"
            onChange={(e) => setOrg(e.target.value)}
          />
          <span className="text-xs text-slate-600 dark:text-slate-400">You must be an owner of it on GitHub.</span>
        </label>
        <div className="sm:col-span-2">
          <Button type="submit" busy={go.isPending} disabled={!name.trim()}>
            Create the GitHub App on GitHub
          </Button>
          {go.isError && (
            <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
              {errorMessage(go.error, "Could not start creating the App")}
            </p>
          )}
        </div>
      </form>
      <ManifestSummary m={s.manifest} />
    </Card>
  );
}
