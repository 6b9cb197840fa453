import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BLOCKED, MAX_REASONS, startEgressProxy, type EgressNetwork, type EgressProxy } from "./sandbox.egress";
import { parseAllowedHosts } from "./sandbox.egress.policy";

// Hostile: a networked setup opens tunnels to an allowed name and sends what it likes in them.
// The world outside is a stand-in: the names resolve to public documentation addresses, and
// connections to those land on local servers, so the proxy's own checks run unchanged.
const REGISTRY = "203.0.113.10";
const DOWN = "203.0.113.11";
let site: tls.Server;
let sitePort: number;
let deadPort: number;
/** TCP connections the site accepted, whether or not a handshake followed. */
let accepted = 0;
const dialled: string[] = [];
let proxy: EgressProxy;

const network: EgressNetwork = {
  lookup: async (host) => ({ "registry.example": [REGISTRY], "down.example": [DOWN] })[host] ?? [],
  connect: (ip, port) => {
    dialled.push(`${ip}:${port}`);
    return net.connect(ip === REGISTRY ? sitePort : deadPort, "127.0.0.1");
  },
};

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-egress-names-"));
  const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
  const args = "req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=registry.example -days 1";
  execFileSync("openssl", [...args.split(" "), "-keyout", key, "-out", cert], { stdio: "ignore" });
  // Stands for the registry: it answers the first thing a client sends with the name it was reached by.
  site = tls.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (s) =>
    s.once("data", (d: Buffer) => s.end(`site=${s.servername || "(none)"} got=${d.toString()}`)),
  );
  fs.rmSync(dir, { recursive: true, force: true });
  site.on("connection", () => accepted++);
  site.on("tlsClientError", () => {});
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", () => r()));
  sitePort = (site.address() as AddressInfo).port;
  // A port nothing listens on: a server that is down.
  const gone = net.createServer();
  await new Promise<void>((r) => gone.listen(0, "127.0.0.1", () => r()));
  deadPort = (gone.address() as AddressInfo).port;
  await new Promise<void>((r) => gone.close(() => r()));
  proxy = await startEgressProxy(parseAllowedHosts(["registry.example", "down.example", `127.0.0.1:${deadPort}`]), {
    network,
  });
});
afterAll(async () => {
  await proxy.close();
  site.close();
});

/** Opens a CONNECT tunnel as a sandboxed client does: the socket once answered 200, else the status. */
const tunnel = (target: string, via = proxy) =>
  new Promise<net.Socket | number>((resolve, reject) => {
    http
      .request({ socketPath: via.socketPath, method: "CONNECT", path: target, headers: { host: target } })
      .on("connect", (res: http.IncomingMessage, socket: net.Socket) =>
        resolve(res.statusCode === 200 ? socket : (res.statusCode ?? 0)),
      )
      .on("error", reject)
      .end();
  });

const open = async (target: string, via = proxy) => {
  const socket = await tunnel(target, via);
  if (typeof socket === "number") throw new Error(`CONNECT ${target} answered ${socket}`);
  return socket;
};

/** TLS through a tunnel to `target` naming `servername`, sending "ping": what came back, or how it failed. */
const tlsVia = async (target: string, servername: string, via = proxy) => {
  const socket = await open(target, via);
  return new Promise<string>((resolve) => {
    let body = "";
    let failure = "closed before the handshake";
    const s = tls.connect({ socket, servername, rejectUnauthorized: false });
    s.on("secureConnect", () => {
      failure = "";
      s.write("ping");
    });
    s.on("data", (d: Buffer) => (body += d.toString()));
    s.on("error", (e: NodeJS.ErrnoException) => (failure ||= e.code ?? e.message));
    s.on("close", () => resolve(failure ? `ERR ${failure}` : body));
  });
};

/** What comes back through a tunnel after sending `bytes`, until it closes (or "still open" after 8 s). */
const plainVia = async (target: string, bytes: string, via = proxy) => {
  const socket = await open(target, via);
  return new Promise<string>((resolve) => {
    let got = "";
    socket.on("data", (d: Buffer) => (got += d.toString()));
    socket.on("error", () => {});
    socket.on("close", () => resolve(got));
    setTimeout(() => resolve(`still open, got ${got}`), 8000);
    socket.write(bytes);
  });
};

/** A plain-HTTP proxy request over the proxy's socket, as a sandboxed setup sends it: status and body. */
const forwarded = (url: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .request({ socketPath: proxy.socketPath, method: "GET", path: url }, (r) => {
        let body = "";
        r.on("data", (d: Buffer) => (body += d.toString()));
        r.on("end", () => resolve({ status: r.statusCode ?? 0, body }));
      })
      .on("error", reject)
      .end();
  });

/** Bytes written straight to the proxy's socket: everything it answers until it closes. */
const rawVia = (bytes: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = net.connect(proxy.socketPath);
    let got = "";
    socket.on("data", (d: Buffer) => (got += d.toString()));
    socket.on("error", reject);
    socket.on("close", () => resolve(got));
    socket.write(bytes);
  });

describe("a tunnel to a name on a web port", () => {
  it("judges the client's first bytes before dialling: a refused one never reaches the server", async () => {
    expect(await tlsVia("registry.example:443", "evil.example")).toMatch(/^ERR /);
    expect(await plainVia("registry.example:80", "GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n")).toBe("");
    expect(accepted).toBe(0);
    expect(dialled).toEqual([]);
    expect(proxy.blocked()).toEqual([
      "registry.example:443 (TLS server name evil.example does not match host)",
      "registry.example:80 (not TLS on a web port; send http:// URLs as proxy requests)",
    ]);
  });

  it("dials once the ClientHello names the host, and carries data both ways", async () => {
    const [acceptedBefore, dialledBefore] = [accepted, dialled.length];
    expect(await tlsVia("registry.example:443", "registry.example")).toBe("site=registry.example got=ping");
    expect(accepted - acceptedBefore).toBe(1);
    expect(dialled.slice(dialledBefore)).toEqual([`${REGISTRY}:443`]);
  });

  it("reports a server that is down with its cause: a name's tunnel closes after its hello, an address's and a forwarded request answer 502", async () => {
    expect(await tlsVia("down.example:443", "down.example")).toMatch(/^ERR /);
    // The 502s say which server could not be reached and why, to the setup's own log.
    expect(await rawVia(`CONNECT 127.0.0.1:${deadPort} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)).toMatch(
      new RegExp(
        `^HTTP/1.1 502 [^]*\r\n\r\nCould not reach 127\\.0\\.0\\.1:${deadPort} \\(could not connect: ECONNREFUSED\\)\n$`,
      ),
    );
    expect(await forwarded("http://down.example/left-pad")).toEqual({
      status: 502,
      body: "Could not reach down.example:80 (could not connect: ECONNREFUSED)\n",
    });
    expect(dialled.slice(-3)).toEqual([`${DOWN}:443`, `127.0.0.1:${deadPort}`, `${DOWN}:80`]);
    // The client saw only its TLS fail (or a bare 502): the step's list says which server and why.
    expect(proxy.blocked().filter((b) => b.includes("down.example") || b.includes(String(deadPort)))).toEqual([
      "down.example:443 (could not connect: ECONNREFUSED)",
      `127.0.0.1:${deadPort} (could not connect: ECONNREFUSED)`,
      "down.example:80 (could not connect: ECONNREFUSED)",
    ]);
  });
});

describe("the list of refused targets", () => {
  let own: EgressProxy;
  beforeAll(async () => {
    own = await startEgressProxy(parseAllowedHosts(["registry.example"]), { network });
  });
  afterAll(() => own.close());

  it("keeps each distinct reason a target was refused for, each once", async () => {
    expect(await tlsVia("registry.example:443", "evil.example", own)).toMatch(/^ERR /);
    expect(await plainVia("registry.example:443", "GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n", own)).toBe("");
    expect(await tlsVia("registry.example:443", "evil.example", own)).toMatch(/^ERR /);
    expect(own.blocked()).toEqual([
      "registry.example:443 (TLS server name evil.example does not match host)",
      "registry.example:443 (not TLS on a web port; send http:// URLs as proxy requests)",
    ]);
  });

  it("stays bounded however many reasons and targets a setup makes up", async () => {
    const acceptedBefore = accepted;
    const names = Array.from({ length: MAX_REASONS + 3 }, (_, i) => `evil${i}.example`);
    for (const name of names) expect(await tlsVia("registry.example:80", name, own)).toMatch(/^ERR /);
    const hosts = Array.from({ length: MAX_BLOCKED + 5 }, (_, i) => `nope${i}.example:443`);
    for (const host of hosts) expect(await tunnel(host, own)).toBe(403);
    const list = own.blocked();
    expect(list.filter((b) => b.startsWith("registry.example:80 "))).toEqual(
      names.slice(0, MAX_REASONS).map((n) => `registry.example:80 (TLS server name ${n} does not match host)`),
    );
    const targets = [...new Set(list.map((b) => b.split(" ")[0]))];
    expect(targets).toEqual(["registry.example:443", "registry.example:80", ...hosts.slice(0, MAX_BLOCKED - 2)]);
    expect(accepted).toBe(acceptedBefore);
  });
});

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
