import type { Db } from "@fixloop/db";

export interface SseEvent {
  event: string;
  id?: string;
  data: unknown;
}

/** Reads an SSE response, calling `onEvent` per event; stops when the stream ends or `onEvent` returns false. */
export async function readSse(res: Response, onEvent: (e: SseEvent) => boolean | void = () => {}): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const reader = res.body?.getReader();
  if (!reader) throw new Error("no body");
  const decoder = new TextDecoder();
  let buf = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return events;
      buf += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const e: Partial<SseEvent> & { lines: string[] } = { lines: [] };
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) e.event = line.slice(6).trim();
          else if (line.startsWith("id:")) e.id = line.slice(3).trim();
          else if (line.startsWith("data:")) e.lines.push(line.slice(5).trimStart());
        }
        if (!e.event) continue;
        const ev: SseEvent = { event: e.event, id: e.id, data: e.lines.length ? JSON.parse(e.lines.join("\n")) : null };
        events.push(ev);
        if (onEvent(ev) === false) return events;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** An issue row of a seeded stand-in repository, owned by `userId`. */
export async function insertIssue(db: Db, userId: string, o: { repo?: string; number?: number; title?: string; body?: string; labels?: string[] } = {}) {
  const repo = o.repo ?? "hubot/markdown-lint";
  const number = o.number ?? 3;
  return db
    .insertInto("issues")
    .values({
      user_id: userId,
      repo_full_name: repo,
      issue_number: number,
      title: o.title ?? "trailing-spaces ignores trailing tabs",
      body: o.body ?? "A line ending in a tab (`\"text\\t\"`) is not reported by `trailing-spaces`, although the README says the rule checks for spaces or tabs. The pattern is the `TRAILING` regular expression in `src/rules/trailing-spaces.js`.",
      labels: JSON.stringify(o.labels ?? ["bug", "good first issue"]),
      status: "open",
      html_url: `https://github.com/${repo}/issues/${number}`,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}
