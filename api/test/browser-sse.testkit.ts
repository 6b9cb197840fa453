import fs from "node:fs";
import { afterAll } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { RUN_EVENT_TYPES, TERMINAL_EVENTS } from "@fixloop/contract";

const CHROMIUM =
  process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => fs.existsSync(p));

/** One message a page's EventSource received: its event name, `lastEventId`, and which connection (1 = first) carried it. */
export interface SeenEvent {
  type: string;
  id: string;
  connection: number;
}

export interface PageStream {
  seen(): Promise<{ events: SeenEvent[]; opens: number; done: boolean }>;
}

let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
});

/**
 * The file's one Chromium, launched on first use. Its launch takes seconds on a loaded machine: a
 * test that must catch a run while it is under way launches it before starting the run.
 */
export async function sharedBrowser(): Promise<Browser> {
  browser ??= await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"], headless: true });
  return browser;
}

/**
 * A real Chromium page on `origin` (signed in with `cookie`) following `path` with the browser's
 * own EventSource: it reconnects by itself, sending `Last-Event-ID`, and is closed by the page
 * after the run's terminal event.
 */
export async function browserEventStream(origin: string, path: string, cookie: string): Promise<PageStream> {
  const context = await (await sharedBrowser()).newContext({ bypassCSP: true });
  const [name = "", value = ""] = cookie.split("=");
  await context.addCookies([{ name, value, url: origin }]);
  const page: Page = await context.newPage();
  await page.goto(`${origin}/api/health`);
  const types = ["snapshot", ...RUN_EVENT_TYPES];
  await page.evaluate(
    ({ path, types, terminal }) => {
      const s = { events: [] as { type: string; id: string; connection: number }[], opens: 0, done: false };
      (window as unknown as { __sse: typeof s }).__sse = s;
      const es = new EventSource(path);
      es.onopen = () => s.opens++;
      for (const type of types)
        es.addEventListener(type, (e) => {
          s.events.push({ type, id: (e as MessageEvent).lastEventId, connection: s.opens });
          if (terminal.includes(type)) {
            s.done = true;
            es.close();
          }
        });
    },
    { path, types, terminal: [...TERMINAL_EVENTS] as string[] },
  );
  return {
    seen: () =>
      page.evaluate(() => {
        const s = (window as unknown as { __sse: { events: SeenEvent[]; opens: number; done: boolean } }).__sse;
        return { events: [...s.events], opens: s.opens, done: s.done };
      }),
  };
}
