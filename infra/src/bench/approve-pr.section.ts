import type { GithubSandboxControl } from "@fixloop/testkit/sandbox";
import { seedSolution } from "./bench-seed";
import { startBenchStack, type BenchStack } from "./bench-stack";
import { percentile, type Figure } from "./report";
import type { BenchContext, Section } from "./section.types";

/** Measured approvals per case (after one warm-up), each on an issue of its own. */
const RUNS = 8;
const TARGET_MS = 2000;
const POLL_MS = 20;
/**
 * Approvals by one user start this far apart: a pull request is four GitHub writes (five from a
 * fork, which is brought up to date first), and a credential's write burst refills at one a second
 * (GitHub's pace), so each run starts as a reviewer's single approval does. Back to back, the
 * pace itself (a second per write) is what gets measured.
 */
const SPACING_MS = 6000;

type Session = Awaited<ReturnType<BenchStack["signIn"]>>;

/**
 * Approve → pull request visible: from the approve request until `GET /api/validations/:id`
 * answers with the solution's pull request (the page's view), as the browser sees it.
 */
async function approveToVisible(bs: BenchStack, me: Session, solutionId: string): Promise<number> {
  const headers = { ...me.headers, "content-type": "application/json" };
  const t0 = performance.now();
  const res = await fetch(`${bs.api}/api/validations/${solutionId}/validate`, {
    method: "POST",
    headers,
    body: JSON.stringify({ status: "approved" }),
  });
  if (res.status !== 200 && res.status !== 202) throw new Error(`approve answered ${res.status}: ${await res.text()}`);
  for (;;) {
    const view = await fetch(`${bs.api}/api/validations/${solutionId}`, { headers: me.headers });
    const body = (await view.json()) as { pullRequest: { number: number } | null };
    if (body.pullRequest?.number) return performance.now() - t0;
    if (performance.now() - t0 > 60_000) throw new Error(`no pull request for ${solutionId} after 60 s`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Grants repository access as a user does after sign-in (OAuth round trip through the stand-in). */
export async function authorizeRepos(bs: BenchStack, github: string, login: string, me: Session): Promise<void> {
  const start = await fetch(`${bs.api}/api/auth/github/repos?private=false`, {
    headers: me.headers,
    redirect: "manual",
  });
  const authorize = start.headers.get("location");
  if (!authorize) throw new Error(`repository authorization answered ${start.status}`);
  const binding = start.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const form = new URLSearchParams(new URL(authorize).searchParams);
  form.set("login", login);
  const granted = await fetch(new URL("/login/oauth/authorize", github), {
    method: "POST",
    body: form,
    redirect: "manual",
  });
  const back = new URL(granted.headers.get("location") ?? "http://invalid/");
  const cb = await fetch(`${bs.api}${back.pathname}${back.search}`, {
    headers: { ...me.headers, cookie: `${me.headers.cookie}; ${binding}` },
    redirect: "manual",
  });
  if (!(cb.headers.get("location") ?? "").includes("authorized=true"))
    throw new Error(`repository authorization callback answered ${cb.status} ${cb.headers.get("location")}`);
}

/** The floor: the GitHub calls any pull request needs (ref, tree, commit, branch, pull), made directly on the stand-in. */
async function barePullRequest(github: string, token: string, i: number): Promise<number> {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${github}${path}`, {
      method,
      headers: { authorization: `token ${token}`, "content-type": "application/json", accept: "application/json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  const repo = "/repos/octocat/todo-api";
  const t0 = performance.now();
  const ref = await call<{ object: { sha: string } }>("GET", `${repo}/git/ref/heads/main`);
  const tree = await call<{ sha: string }>("POST", `${repo}/git/trees`, {
    base_tree: ref.object.sha,
    tree: [{ path: `bench/bare-${i}.md`, mode: "100644", type: "blob", content: `bare ${i}\n` }],
  });
  const commit = await call<{ sha: string }>("POST", `${repo}/git/commits`, {
    message: `Bare ${i}`,
    tree: tree.sha,
    parents: [ref.object.sha],
  });
  await call("POST", `${repo}/git/refs`, { ref: `refs/heads/bench-bare-${i}`, sha: commit.sha });
  await call("POST", `${repo}/pulls`, { title: `Bare ${i}`, head: `bench-bare-${i}`, base: "main", body: "bench" });
  return performance.now() - t0;
}

function figures(name: string, times: number[], bare: number[]): Figure[] {
  const base = { section: "Approve → PR visible", baselineName: "bare stand-in PR (5 GitHub calls)" };
  const p50 = percentile(times, 50);
  const p95 = percentile(times, 95);
  return [
    { ...base, name: `${name} p50`, value: Math.round(p50), unit: "ms", baseline: Math.round(percentile(bare, 50)) },
    {
      ...base,
      name: `${name} p95`,
      value: Math.round(p95),
      unit: "ms",
      baseline: Math.round(percentile(bare, 95)),
      target: `<= ${TARGET_MS} ms`,
      holds: p95 <= TARGET_MS,
    },
  ];
}

export const approvePrSection: Section = {
  name: "approve-pr",
  async run(ctx: BenchContext): Promise<Figure[]> {
    const bs = await startBenchStack(ctx, "approve-pr");
    try {
      bs.startWorker();
      const github = bs.stack.sandboxes.github;
      if (!github) throw new Error("the bench stack has no GitHub stand-in");
      const control = github.control as GithubSandboxControl;
      const octocat = await bs.signIn("octocat");
      const hubot = await bs.signIn("hubot");
      await authorizeRepos(bs, github.url, "octocat", octocat);
      await authorizeRepos(bs, github.url, "hubot", hubot);
      // hubot contributes to octocat/todo-api from a fork made once, before measuring.
      const hubotToken = control.issueToken("hubot", ["public_repo"]);
      const fork = await fetch(`${github.url}/repos/octocat/todo-api/forks`, {
        method: "POST",
        headers: { authorization: `token ${hubotToken}`, accept: "application/json" },
      });
      if (!fork.ok) throw new Error(`fork answered ${fork.status}`);

      const measure = async (who: Session, login: string, imported: boolean, n: number) => {
        const times: number[] = [];
        for (let i = 0; i <= RUNS; i++) {
          const issueNumber = n + i;
          const { solutionId } = await seedSolution(bs.db, {
            userId: who.userId,
            repoFullName: imported ? `${login}/todo-api` : "octocat/todo-api",
            issueNumber,
            title: `Bench approval ${issueNumber}`,
            ...(imported ? { imported: { upstream: "octocat/todo-api", fork: `${login}/todo-api` } } : {}),
            files: [
              { filename: `bench/note-${issueNumber}.md`, action: "create", originalContent: "", content: "note\n" },
            ],
          });
          const ms = await approveToVisible(bs, who, solutionId);
          if (i > 0) times.push(ms); // the first one warms the worker's clients and caches
          await new Promise((r) => setTimeout(r, Math.max(0, SPACING_MS - ms)));
        }
        return times;
      };
      const own = await measure(octocat, "octocat", false, 1000);
      const forked = await measure(hubot, "hubot", true, 2000);
      const token = control.issueToken("octocat", ["repo"]);
      const bare: number[] = [];
      for (let i = 0; i <= RUNS; i++) {
        const ms = await barePullRequest(github.url, token, i);
        if (i > 0) bare.push(ms);
      }
      process.stderr.write(
        `  approve-pr own ${own.map(Math.round).join(", ")} ms; fork ${forked.map(Math.round).join(", ")} ms; bare ${bare.map(Math.round).join(", ")} ms\n`,
      );
      return [...figures("own repository", own, bare), ...figures("fork", forked, bare)];
    } finally {
      await bs.stop();
    }
  },
};
