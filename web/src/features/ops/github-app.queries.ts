import { queryOptions } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";

export type GithubAppStatus = InferResponseType<(typeof api.ops)["github-app"]["$get"], 200>;

/** Fixloop's GitHub App as the operator sees it: the one in use, where it came from, the manifest Fixloop sends. */
export const githubAppStatusQuery = () =>
  queryOptions({
    queryKey: ["ops", "github-app"],
    queryFn: () => unwrap(api.ops["github-app"].$get()),
    retry: false,
  });

/**
 * Starts the manifest flow and posts the manifest to GitHub as a top-level form (GitHub's flow is a
 * browser POST); the browser leaves for GitHub and comes back to /ops/github-app.
 */
export async function postManifestToGithub(body: { name: string; organization?: string }) {
  const { action, manifest } = await unwrap(api.ops["github-app"].manifest.$post({ json: body }));
  const form = document.createElement("form");
  form.method = "post";
  form.action = action;
  const field = document.createElement("input");
  field.type = "hidden";
  field.name = "manifest";
  field.value = manifest;
  form.append(field);
  document.body.append(form);
  form.submit();
}
