export interface SseEvent {
  event: string;
  id?: string;
  data: unknown;
}

/** Reads an SSE response, calling `onEvent` per event; stops when the stream ends or `onEvent` returns false. */
export async function readSse(
  res: { body: ReadableStream<Uint8Array> | null },
  onEvent: (e: SseEvent) => boolean | void = () => {},
): Promise<SseEvent[]> {
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
