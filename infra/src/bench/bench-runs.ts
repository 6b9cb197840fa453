import type { Queues } from "@fixloop/runtime";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts a solve of the next seeded issue (taken from the end of `issues`) through the API; returns its run id. */
export async function startRun(api: string, headers: Record<string, string>, issues: string[]): Promise<string> {
  const issueId = issues.pop();
  if (!issueId) throw new Error("out of seeded issues");
  const res = await fetch(`${api}/api/ai/generate-solution`, {
    method: "POST",
    headers,
    body: JSON.stringify({ issueId }),
  });
  if (res.status !== 202) throw new Error(`generate-solution answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { runId: string }).runId;
}

/** Waits (up to a minute) until `count` solve workers are connected to the queue. */
export async function waitWorkers(queues: Queues, count: number) {
  const end = Date.now() + 60_000;
  while ((await queues.solve.getWorkers()).length < count) {
    if (Date.now() > end) throw new Error(`${count} solve workers did not connect`);
    await sleep(100);
  }
}
