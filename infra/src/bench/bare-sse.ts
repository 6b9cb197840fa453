import http from "node:http";

/**
 * Baseline: a bare node:http SSE server. `push(data)` writes one event to every open stream.
 */
export async function startBareSse(): Promise<{
  url: string;
  push(data: string): void;
  open(): number;
  stop(): Promise<void>;
}> {
  const clients = new Set<http.ServerResponse>();
  let seq = 0;
  const server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" });
    res.write(": open\n\n");
    clients.add(res);
    req.on("close", () => clients.delete(res));
  });
  server.keepAliveTimeout = 0;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    push(data) {
      const frame = `id: ${++seq}\nevent: step\ndata: ${data}\n\n`;
      for (const c of clients) c.write(frame);
    },
    open: () => clients.size,
    async stop() {
      for (const c of clients) c.end();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
