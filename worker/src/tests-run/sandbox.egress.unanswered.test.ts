import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEgressProxy, type EgressProxy } from "./sandbox.egress";
import { parseAllowedHosts } from "./sandbox.egress.policy";
import { egressClient } from "./sandbox.egress.names.testkit";

describe("a connect the server never answers", () => {
  // A listening socket whose accept queue is full: its process blocks its event loop right after
  // listen, so nothing is ever accepted, and once the queue holds what its backlog allows Linux
  // drops further SYNs. A connect there stays pending (no RST, no error) until the client gives up,
  // on loopback alone. A non-routable address would not do on a machine without a route out: it
  // fails at once (ENETUNREACH) instead of going unanswered.
  const SILENT = "203.0.113.12";
  const LISTEN = `const s = require("node:net").createServer();
s.listen({ port: 0, host: "127.0.0.1", backlog: 1 }, () => {
  require("node:fs").writeSync(1, s.address().port + "\\n");
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
});`;
  let listener: ChildProcess;
  let silentPort: number;
  const fillers: net.Socket[] = [];
  const upstreams: net.Socket[] = [];
  let own: EgressProxy;
  const { tlsVia } = egressClient(() => own);

  /** Whether a connect to the silent port completes within 300 ms. */
  const answers = () =>
    new Promise<boolean>((resolve) => {
      const s = net.connect(silentPort, "127.0.0.1");
      fillers.push(s);
      s.on("error", () => resolve(false));
      s.once("connect", () => resolve(true));
      setTimeout(() => resolve(false), 300);
    });

  beforeAll(async () => {
    listener = spawn(process.execPath, ["-e", LISTEN], { stdio: ["ignore", "pipe", "inherit"] });
    silentPort = await new Promise<number>((resolve, reject) => {
      listener.stdout?.once("data", (d: Buffer) => resolve(Number(d.toString().trim())));
      listener.once("exit", (code) => reject(new Error(`the listener exited (${code})`)));
    });
    // Fill the accept queue: the first connect that goes unanswered shows it full.
    let filled = false;
    for (let i = 0; i < 10 && !filled; i++) filled = !(await answers());
    expect(filled).toBe(true);
    own = await startEgressProxy(parseAllowedHosts([`${SILENT}:8080`, "silent.example"]), {
      connectMs: 300,
      network: {
        lookup: async (host) => (host === "silent.example" ? [SILENT] : []),
        connect: () => {
          const up = net.connect(silentPort, "127.0.0.1");
          upstreams.push(up);
          return up;
        },
      },
    });
  });
  afterAll(async () => {
    await own?.close();
    for (const s of fillers) s.destroy();
    listener.kill();
  });

  it("answers 502 after the connect timeout, closes the tunnel and the upstream socket, and says why", async () => {
    const started = Date.now();
    const answer = await Promise.race([
      new Promise<{ status: number; socket: net.Socket }>((resolve, reject) => {
        http
          .request({ socketPath: own.socketPath, method: "CONNECT", path: `${SILENT}:8080` })
          .on("connect", (res: http.IncomingMessage, socket: net.Socket) =>
            resolve({ status: res.statusCode ?? 0, socket }),
          )
          .on("error", reject)
          .end();
      }),
      new Promise<string>((resolve) => setTimeout(() => resolve("no answer in 3 s"), 3000)),
    ]);
    if (typeof answer === "string") throw new Error(answer);
    expect(answer.status).toBe(502);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const closed = await new Promise<boolean>((resolve) => {
      if (answer.socket.destroyed) return resolve(true);
      answer.socket.on("error", () => {});
      answer.socket.on("close", () => resolve(true));
      answer.socket.resume();
      setTimeout(() => resolve(false), 1000);
    });
    expect(closed).toBe(true);
    expect(upstreams).toHaveLength(1);
    expect(upstreams[0]?.destroyed).toBe(true);
    expect(own.blocked()).toEqual([`${SILENT}:8080 (could not connect: no answer in 0.3 s)`]);
  });

  it("closes a name's tunnel after its hello once the connect goes unanswered", async () => {
    const started = Date.now();
    const result = await Promise.race([
      tlsVia("silent.example:443", "silent.example", own),
      new Promise<string>((resolve) => setTimeout(() => resolve("still open after 3 s"), 3000)),
    ]);
    expect(result).toMatch(/^ERR /);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(upstreams).toHaveLength(2);
    expect(upstreams[1]?.destroyed).toBe(true);
    expect(own.blocked()).toContain("silent.example:443 (could not connect: no answer in 0.3 s)");
  });
});
