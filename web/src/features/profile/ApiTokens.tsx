import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Copy, KeyRound, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { apiTokensQuery } from "../../api/tokens.queries";
import { Button, Card, Spinner } from "../../ui/ui";

/** Personal API tokens: the secret is shown once, right after creation. */
export function ApiTokens() {
  const qc = useQueryClient();
  const tokens = useQuery(apiTokensQuery());
  const [name, setName] = useState("");
  const [secret, setSecret] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => unwrap(api.tokens.$post({ json: { name } })),
    onSuccess: (body) => {
      setSecret(body.secret);
      setName("");
      void qc.invalidateQueries({ queryKey: apiTokensQuery().queryKey });
    },
    onError: (err) => toast.error(errorMessage(err, "Failed to create token")),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => unwrap(api.tokens[":id"].$delete({ param: { id } })),
    onSuccess: () => {
      toast.success("Token revoked");
      void qc.invalidateQueries({ queryKey: apiTokensQuery().queryKey });
    },
    onError: (err) => toast.error(errorMessage(err, "Failed to revoke token")),
  });
  const active = (tokens.data?.tokens ?? []).filter((t) => !t.revokedAt);
  return (
    <Card>
      <h2 className="flex items-center gap-2 font-semibold">
        <KeyRound className="size-4" aria-hidden /> API tokens
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        Use a token as <code>Authorization: Bearer …</code> to call the API from scripts. Tokens cannot create, list or
        revoke tokens; manage them here.
      </p>
      <form
        className="mt-3 flex flex-col gap-2 sm:flex-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) create.mutate();
        }}
      >
        <label htmlFor="token-name" className="sr-only">
          Token name
        </label>
        <input
          id="token-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="Token name, e.g. CI"
          className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-600 dark:bg-slate-900"
        />
        <Button type="submit" busy={create.isPending} disabled={!name.trim()}>
          Create token
        </Button>
      </form>
      {secret && (
        <div
          role="status"
          className="mt-3 rounded-lg border border-green-300 bg-green-50 p-3 text-sm dark:border-green-800 dark:bg-green-950/40"
        >
          <p className="font-medium">Copy your token now. It will not be shown again.</p>
          <div className="mt-2 flex items-center gap-2">
            <code className="min-w-0 flex-1 break-all" data-testid="token-secret">
              {secret}
            </code>
            <Button
              variant="secondary"
              aria-label="Copy token"
              onClick={() => void navigator.clipboard?.writeText(secret).then(() => toast.success("Copied"))}
            >
              <Copy className="size-4" aria-hidden />
            </Button>
          </div>
        </div>
      )}
      {tokens.isPending && <Spinner label="Loading tokens..." />}
      <ul className="mt-3 divide-y divide-slate-200 dark:divide-slate-800">
        {active.length === 0 && tokens.data && (
          <li className="py-2 text-sm text-slate-600 dark:text-slate-400">No API tokens yet</li>
        )}
        {active.map((t) => (
          <li key={t._id} className="flex items-center justify-between gap-2 py-2 text-sm">
            <span className="min-w-0">
              <span className="block font-medium">{t.name}</span>
              <span className="text-xs text-slate-600 dark:text-slate-400">
                <code>{t.prefix}…</code> · created {new Date(t.createdAt).toLocaleDateString()} ·{" "}
                {t.lastUsedAt ? `last used ${new Date(t.lastUsedAt).toLocaleDateString()}` : "never used"}
              </span>
            </span>
            <Button
              variant="secondary"
              aria-label={`Revoke token ${t.name}`}
              busy={revoke.isPending && revoke.variables === t._id}
              onClick={() => revoke.mutate(t._id)}
            >
              <Trash2 className="size-4" aria-hidden />
            </Button>
          </li>
        ))}
      </ul>
    </Card>
  );
}
