import fs from "node:fs";
import path from "node:path";
import { RequestError } from "@octokit/request-error";
import type { Octokit } from "@octokit/rest";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { afterAll, afterEach, beforeAll, expect, type RunnerTask, type RunnerTestFile } from "vitest";
import { startTestSandbox, type TestSandbox } from "./github-sandbox";
import { VALIDATED, type ContractArea } from "./openapi-routes";
import { ROOT } from "../src/paths";

const SPEC_FILE = path.join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.deref.json");
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export type Schema = Record<string, unknown>;
export interface Spec {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
}

export const loadSpec = (): Spec => JSON.parse(fs.readFileSync(SPEC_FILE, "utf8")) as Spec;

/** OpenAPI 3.0 → JSON Schema: `nullable` becomes a null alternative; GitHub's overlapping oneOfs are read as anyOf. */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== "object") return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node as Schema)) {
    if (
      [
        "nullable",
        "example",
        "examples",
        "discriminator",
        "deprecated",
        "readOnly",
        "writeOnly",
        "externalDocs",
      ].includes(key) ||
      key.startsWith("x-")
    )
      continue;
    if (key === "properties" && value && typeof value === "object") {
      out.properties = Object.fromEntries(
        Object.entries(value as Schema).map(([name, sub]) => [name, toJsonSchema(sub)]),
      );
    } else {
      out[key === "oneOf" ? "anyOf" : key] = toJsonSchema(value);
    }
  }
  return (node as Schema).nullable === true ? { anyOf: [out, { type: "null" }] } : out;
}

/** The seeded repositories the contract files work on. */
export const repos = {
  o: { owner: "octocat", repo: "todo-api" },
  fork: { owner: "octocat", repo: "markdown-lint" },
  upstream: { owner: "hubot", repo: "markdown-lint" },
} as const;

/** Pushes branch `branch` one commit (adding `files`) ahead of `r`'s main, without validating the calls. */
export async function pushBranch(
  gh: Octokit,
  r: { owner: string; repo: string },
  branch: string,
  files: Record<string, string>,
  message: string,
): Promise<void> {
  const main = await gh.request("GET /repos/{owner}/{repo}/git/ref/{ref}", { ...r, ref: "heads/main" });
  const parent = await gh.request("GET /repos/{owner}/{repo}/git/commits/{commit_sha}", {
    ...r,
    commit_sha: main.data.object.sha,
  });
  const tree = await gh.request("POST /repos/{owner}/{repo}/git/trees", {
    ...r,
    base_tree: parent.data.tree.sha,
    tree: Object.entries(files).map(([file, content]) => ({
      path: file,
      mode: "100644" as const,
      type: "blob" as const,
      content,
    })),
  });
  const commit = await gh.request("POST /repos/{owner}/{repo}/git/commits", {
    ...r,
    message,
    tree: tree.data.sha,
    parents: [main.data.object.sha],
  });
  await gh.request("POST /repos/{owner}/{repo}/git/refs", { ...r, ref: `refs/heads/${branch}`, sha: commit.data.sha });
}

const testsOf = (task: RunnerTask): RunnerTask[] => (task.type === "suite" ? task.tasks.flatMap(testsOf) : [task]);

/**
 * Sets up one contract file: a fresh stand-in and the spec before its tests; after them, the stand-in
 * stops and, when every test of the file ran and passed, the routes it validated must be exactly
 * its entry in VALIDATED, which the coverage test reads (so a validation dropped here, or a route
 * added here without its entry, fails).
 */
export function openapiContract(area: ContractArea) {
  let spec: Spec;
  let t: TestSandbox;
  let me: Octokit;
  const ajv = addFormats(new Ajv({ strict: false, allErrors: true, logger: false }));
  const compiled = new Map<string, ValidateFunction>();
  const checked: string[] = [];

  beforeAll(async () => {
    spec = loadSpec();
    t = await startTestSandbox();
    me = t.octokit("octocat", ["repo", "user"]);
  }, 120_000);
  // A file run in part (a filter, a failure) proves nothing about its entry in VALIDATED.
  let file: RunnerTestFile | undefined;
  let passed = 0;
  afterEach(({ task }) => {
    file = task.file;
    if (task.result?.state !== "fail") passed += 1;
  });
  afterAll(async () => {
    await t?.stop();
    console.log(
      `OpenAPI contract (${area}): ${checked.length} responses validated against api.github.com.deref.json\n  ${checked.join("\n  ")}`,
    );
    if (!file || passed !== file.tasks.flatMap(testsOf).length) return;
    const routes = [...new Set(checked.map((c) => c.split(" → ")[0]))].sort();
    expect(routes, `the routes ${area} validates, as VALIDATED.${area} lists them`).toEqual(
      [...VALIDATED[area]].sort(),
    );
  });

  /**
   * Calls `route` through Octokit and validates the body against the official schema for the status
   * received: `route`'s own, or `documentedAs`'s for a path GitHub serves but does not describe
   * (`/repositories/{id}/…` answers as `/repos/{owner}/{repo}/…`).
   */
  async function check(
    gh: Octokit,
    route: string,
    params: Record<string, unknown>,
    expectedStatus: number,
    documentedAs = route,
  ): Promise<any> {
    const [method = "", specPath = ""] = documentedAs.split(" ");
    let status: number;
    let data: unknown;
    try {
      ({ status, data } = await gh.request(route, params));
    } catch (error) {
      if (!(error instanceof RequestError)) throw error;
      status = error.status;
      data = error.response?.data;
    }
    expect(status, `${route} status`).toBe(expectedStatus);
    const operation = spec.paths[specPath]?.[method.toLowerCase()];
    const response = operation?.responses[String(status)];
    expect(response, `${route} ${status} is documented`).toBeDefined();
    const schema = response?.content?.["application/json"]?.schema;
    if (!schema) {
      expect(data === undefined || data === "" || data === null, `${route} ${status} has no body`).toBe(true);
    } else {
      const key = `${route} ${status}`;
      const validate = compiled.get(key) ?? ajv.compile(toJsonSchema(schema) as Schema);
      compiled.set(key, validate);
      // Compiling a large schema (the timeline's) blocks the event loop past the keep-alive timeout;
      // let both ends close the idle connection before the next request would reuse it.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const ok = validate(data);
      expect(ok ? [] : validate.errors?.slice(0, 8), `${route} ${status} matches the OpenAPI schema`).toEqual([]);
    }
    checked.push(`${route} → ${status}`);
    return data;
  }

  return {
    check,
    /** The stand-in, octocat's client (scopes repo and user), the spec and its validator, once started. */
    started: () => ({ t, me, spec, ajv }),
  };
}
