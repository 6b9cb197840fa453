import type { Octokit } from "@octokit/rest";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestSandbox } from "../../../test/github-sandbox";
import { openapiContract, repos } from "../../../test/openapi-contract";

const { check, started } = openapiContract("git");
const { fork, upstream } = repos;
let t: TestSandbox;
let me: Octokit;
const state = { head: "", tree: "", blob: "", commit: "", second: "" };
beforeAll(() => void ({ t, me } = started()));

describe("responses match GitHub's OpenAPI description", () => {
  it("forks", async () => {
    await check(me, "POST /repos/{owner}/{repo}/forks", upstream, 202);
    const full = await check(me, "GET /repos/{owner}/{repo}", fork, 200);
    expect(full.parent.full_name).toBe("hubot/markdown-lint");
    await check(me, "GET /repos/{owner}/{repo}/forks", upstream, 200);
  });

  it("git data and contents", async () => {
    const ref = await check(me, "GET /repos/{owner}/{repo}/git/ref/{ref}", { ...fork, ref: "heads/main" }, 200);
    state.head = ref.object.sha;
    await check(me, "GET /repos/{owner}/{repo}/git/matching-refs/{ref}", { ...fork, ref: "heads/" }, 200);
    const commit = await check(
      me,
      "GET /repos/{owner}/{repo}/git/commits/{commit_sha}",
      { ...fork, commit_sha: state.head },
      200,
    );
    state.tree = commit.tree.sha;
    await check(
      me,
      "GET /repos/{owner}/{repo}/git/trees/{tree_sha}",
      { ...fork, tree_sha: state.tree, recursive: "1" },
      200,
    );
    await check(me, "GET /repos/{owner}/{repo}/contents/{path}", { ...fork, path: "README.md" }, 200);
    await check(me, "GET /repos/{owner}/{repo}/contents/{path}", { ...fork, path: "src/rules" }, 200);
    await check(me, "GET /repos/{owner}/{repo}/contents/{path}", { ...fork, path: "missing.md" }, 404);
    const blob = await check(
      me,
      "POST /repos/{owner}/{repo}/git/blobs",
      { ...fork, content: "const TRAILING = /[ \\t]+$/;\n", encoding: "utf-8" },
      201,
    );
    state.blob = blob.sha;
    await check(me, "GET /repos/{owner}/{repo}/git/blobs/{file_sha}", { ...fork, file_sha: state.blob }, 200);
    const tree = await check(
      me,
      "POST /repos/{owner}/{repo}/git/trees",
      {
        ...fork,
        base_tree: state.tree,
        tree: [{ path: "src/rules/trailing-spaces.js", mode: "100644", type: "blob", sha: state.blob }],
      },
      201,
    );
    const created = await check(
      me,
      "POST /repos/{owner}/{repo}/git/commits",
      { ...fork, message: "Match trailing tabs", tree: tree.sha, parents: [state.head] },
      201,
    );
    state.commit = created.sha;
    await check(
      me,
      "POST /repos/{owner}/{repo}/git/refs",
      { ...fork, ref: "refs/heads/fix-tabs", sha: state.commit },
      201,
    );
    const second = await check(
      me,
      "POST /repos/{owner}/{repo}/git/commits",
      { ...fork, message: "Follow-up", tree: tree.sha, parents: [state.commit] },
      201,
    );
    state.second = second.sha;
    await check(
      me,
      "PATCH /repos/{owner}/{repo}/git/refs/{ref}",
      { ...fork, ref: "heads/fix-tabs", sha: state.second },
      200,
    );
    // The stand-in records each ref update with the force flag it was asked for.
    expect(t.sandbox.control.refUpdates.at(-1)).toMatchObject({
      repo: "octocat/markdown-lint",
      ref: "refs/heads/fix-tabs",
      from: state.commit,
      to: state.second,
      force: false,
      fastForward: true,
    });
    await check(
      me,
      "POST /repos/{owner}/{repo}/git/refs",
      { ...fork, ref: "refs/heads/throwaway", sha: state.commit },
      201,
    );
    await check(me, "DELETE /repos/{owner}/{repo}/git/refs/{ref}", { ...fork, ref: "heads/throwaway" }, 204);
  });
});
