// SSE subscribers in their own process: `node --import tsx sse-client-child.ts` with an IPC channel.
// Receives {url, count, headers, expect}; opens `count` streams; sends {ready} once each has its first
// bytes; records, for every event carrying `t=<ms since epoch>`, the arrival time minus t; sends
// {latencies, complete} once every stream saw `expect` such events (or on {finish}).
import http from "node:http";

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const now = () => performance.timeOrigin + performance.now();

interface Start {
  url: string;
  count: number;
  headers: Record<string, string>;
  expect: number;
}

const latencies: number[] = [];
const requests: http.ClientRequest[] = [];
let opened = 0;
let complete = 0;
let start: Start;
let finishing = false;

// After an error the parent stops listening; later answers have nowhere to go.
const send = (m: unknown) => process.connected && process.send?.(m);
const report = () => send({ latencies, complete, opened });

/** node:http rather than fetch: web streams cost the client more CPU than the servers under test. */
function subscribe(): void {
  const req = http.get(start.url, { headers: { accept: "text/event-stream", ...start.headers }, agent }, (res) => {
    if (res.statusCode !== 200) {
      send({ error: `stream answered ${res.statusCode}` });
      res.resume();
      return;
    }
    res.setEncoding("utf8");
    let first = true;
    let buf = "";
    let seen = 0;
    res.on("data", (chunk: string) => {
      const at = now();
      if (first) {
        first = false;
        if (++opened === start.count) send({ ready: true });
      }
      buf += chunk;
      let cut: number;
      while ((cut = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const t = /t=(\d+(?:\.\d+)?)/.exec(block)?.[1];
        if (!t) continue;
        latencies.push(at - Number(t));
        if (++seen === start.expect && ++complete === start.count) report();
      }
    });
  });
  req.on("error", (err) => {
    if (!finishing) send({ error: err.message });
  });
  requests.push(req);
}

process.on("message", (m: { start?: Start; finish?: boolean }) => {
  if (m.start) {
    start = m.start;
    for (let i = 0; i < start.count; i++) {
      subscribe();
    }
  }
  if (m.finish) {
    report();
    finishing = true;
    for (const req of requests) req.destroy();
    setTimeout(() => process.exit(0), 100);
  }
});
process.on("disconnect", () => process.exit(0));
