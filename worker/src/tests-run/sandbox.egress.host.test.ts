import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Duplex } from "node:stream";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEgressProxy, type EgressProxy } from "./sandbox.egress";
import { parseAllowedHosts } from "./sandbox.egress.policy";

let upstream: http.Server;
let port: number;
let site: tls.Server;
let sitePort: number;
/** The server names the TLS site completed a handshake for. */
const served: string[] = [];
let proxy: EgressProxy;

beforeAll(async () => {
  // Stands for an allowed registry on a shared address: it answers with the Host it was asked for.
  upstream = http.createServer((req, res) => res.end(`host=${req.headers.host}`));
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", () => r()));
  port = (upstream.address() as AddressInfo).port;
  // Stands for a shared TLS address (a CDN's) serving whichever site the client names.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-egress-tls-"));
  const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
  const args = "req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=shared.test -days 1";
  execFileSync("openssl", [...args.split(" "), "-keyout", key, "-out", cert], { stdio: "ignore" });
  site = tls.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (s) => {
    served.push(s.servername || "(none)");
    s.end(`site=${s.servername || "(none)"}`);
  });
  site.on("tlsClientError", () => {});
  fs.rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", () => r()));
  sitePort = (site.address() as AddressInfo).port;
  proxy = await startEgressProxy(parseAllowedHosts([`127.0.0.1:${port}`, `127.0.0.1:${sitePort}`]));
});
afterAll(async () => {
  await proxy.close();
  upstream.close();
  site.close();
});

/** A plain-HTTP proxy request over the proxy's socket, as a sandboxed setup sends it. */
const viaProxy = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request({ socketPath: proxy.socketPath, method: "GET", path: url, headers }, (r) => {
      let body = "";
      r.on("data", (d: Buffer) => (body += d.toString()));
      r.on("end", () => resolve({ status: r.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });

describe("the egress proxy's plain-HTTP forwarding", () => {
  it("sends the allowed host as Host, whatever Host the sandboxed client sent", async () => {
    const r = await viaProxy(`http://127.0.0.1:${port}/left-pad`, { host: "attacker.example" });
    expect(r).toEqual({ status: 200, body: `host=127.0.0.1:${port}` });
  });
});

/** A CONNECT tunnel through the proxy's socket, as a sandboxed client opens one. */
const tunnel = (target: string) =>
  new Promise<net.Socket>((resolve, reject) => {
    http
      .request({ socketPath: proxy.socketPath, method: "CONNECT", path: target, headers: { host: target } })
      .on("connect", (res: http.IncomingMessage, socket: net.Socket) =>
        res.statusCode === 200 ? resolve(socket) : reject(new Error(`CONNECT answered ${res.statusCode}`)),
      )
      .on("error", reject)
      .end();
  });

/** TLS through a tunnel to the site, sending `servername` ("" sends none): what the site said, or how it failed. */
const tlsVia = async (servername: string) => {
  const socket = await tunnel(`127.0.0.1:${sitePort}`);
  return new Promise<string>((resolve) => {
    let body = "";
    let failure = "closed before the handshake";
    const s = tls.connect({ socket, servername, rejectUnauthorized: false });
    s.on("secureConnect", () => (failure = ""));
    s.on("data", (d: Buffer) => (body += d.toString()));
    s.on("error", (e: NodeJS.ErrnoException) => (failure ||= e.code ?? e.message));
    s.on("close", () => resolve(failure ? `ERR ${failure}` : body));
  });
};

describe("the egress proxy's CONNECT tunnels", () => {
  it("close when the TLS ClientHello names another site than the host asked for, before the site sees it", async () => {
    const before = served.length;
    expect(await tlsVia("evil.example")).toMatch(/^ERR /);
    expect(await tlsVia("127.0.0.2")).toMatch(/^ERR /);
    expect(served.slice(before)).toEqual([]);
    expect(proxy.blocked()).toContain(`127.0.0.1:${sitePort} (TLS server name evil.example does not match host)`);
  });

  it("carry TLS end to end when the ClientHello names the host (an address: no name), and plain bytes to an allowed address", async () => {
    expect(await tlsVia("")).toBe("site=(none)");
    const socket = await tunnel(`127.0.0.1:${port}`);
    const body = await new Promise<string>((resolve) => {
      let got = "";
      socket.on("data", (d: Buffer) => (got += d.toString()));
      socket.on("end", () => resolve(got));
      socket.write(`GET /tunnel HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    });
    expect(body).toContain(`host=127.0.0.1:${port}`);
  });

  it("read a ClientHello that comes in pieces, and let nothing through before it is whole", async () => {
    const hello = await new Promise<Buffer>((resolve) => {
      const wire = new Duplex({
        read() {},
        write(chunk: Buffer, _e, done) {
          done();
          resolve(chunk);
        },
      });
      tls.connect({ socket: wire, servername: "evil.example" }).on("error", () => {});
    });
    const before = served.length;
    const socket = await tunnel(`127.0.0.1:${sitePort}`);
    // What the site sent back before the tunnel closed (a ServerHello had the hello gone through).
    const closed = new Promise<string>((resolve) => {
      let got = "";
      socket.on("data", (d: Buffer) => (got += d.toString("hex")));
      socket.on("close", () => resolve(got));
      setTimeout(() => resolve(`still open, got ${got}`), 3000);
    });
    for (let i = 0; i < hello.length; i += 100) {
      socket.write(hello.subarray(i, i + 100));
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await closed).toBe("");
    expect(served.slice(before)).toEqual([]);
  });
});

describe("the egress proxy's idle timeout", () => {
  const IDLE_MS = 400;
  let idleProxy: EgressProxy;
  let echo: net.Server;
  let echoPort: number;
  let stalls: http.Server;
  let stallsPort: number;
  /** The upstream ends of the connections the stand-ins accepted, to see that they are closed too. */
  const upstreamEnds: net.Socket[] = [];

  beforeAll(async () => {
    // Stands for an allowed service that echoes what it gets.
    echo = net.createServer((s) => {
      upstreamEnds.push(s);
      s.pipe(s);
    });
    // Stands for an allowed registry that starts an answer and then stalls.
    stalls = http.createServer((_req, res) => {
      upstreamEnds.push(res.socket as net.Socket);
      res.writeHead(200, { "content-type": "text/plain" }).write("partial");
    });
    for (const s of [echo, stalls]) await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
    echoPort = (echo.address() as AddressInfo).port;
    stallsPort = (stalls.address() as AddressInfo).port;
    idleProxy = await startEgressProxy(parseAllowedHosts([`127.0.0.1:${echoPort}`, `127.0.0.1:${stallsPort}`]), {
      idleMs: IDLE_MS,
    });
  });
  afterAll(async () => {
    await idleProxy.close();
    echo.close();
    stalls.close();
  });

  /** Milliseconds until `s` closes, or null when it is still open after `ms`. */
  const closesWithin = (s: net.Socket, ms: number) =>
    new Promise<number | null>((resolve) => {
      const start = Date.now();
      const timer = setTimeout(() => resolve(null), ms);
      s.once("close", () => {
        clearTimeout(timer);
        resolve(Date.now() - start);
      });
    });

  const echoTunnel = () =>
    new Promise<net.Socket>((resolve, reject) => {
      const target = `127.0.0.1:${echoPort}`;
      http
        .request({ socketPath: idleProxy.socketPath, method: "CONNECT", path: target, headers: { host: target } })
        .on("connect", (res: http.IncomingMessage, socket: net.Socket) =>
          res.statusCode === 200 ? resolve(socket) : reject(new Error(`CONNECT answered ${res.statusCode}`)),
        )
        .on("error", reject)
        .end();
    });

  it("closes a tunnel, both sides, once no byte has passed either way for the idle time", async () => {
    const socket = await echoTunnel();
    const echoed = new Promise<string>((resolve) => socket.once("data", (d: Buffer) => resolve(d.toString())));
    socket.write("hello");
    expect(await echoed).toBe("hello");
    const upstream = upstreamEnds.at(-1);
    const closed = closesWithin(socket, IDLE_MS * 8);
    const upstreamClosed = upstream ? closesWithin(upstream, IDLE_MS * 8) : Promise.resolve(null);
    const after = await closed;
    expect(after).not.toBeNull();
    expect(after).toBeGreaterThanOrEqual(IDLE_MS - 50);
    expect(await upstreamClosed).not.toBeNull();
  });

  it("keeps a tunnel with steady traffic open well past the idle time", async () => {
    const socket = await echoTunnel();
    let got = "";
    socket.on("data", (d: Buffer) => (got += d.toString()));
    const closed = closesWithin(socket, IDLE_MS * 4);
    let sent = "";
    for (let i = 0; i < 16; i++) {
      socket.write(String(i % 10));
      sent += String(i % 10);
      await new Promise((r) => setTimeout(r, IDLE_MS / 4));
    }
    expect(await closed).toBeNull();
    expect(got).toBe(sent);
    socket.destroy();
  });

  it("closes a forwarded request whose answer stalls, client and upstream", async () => {
    const before = upstreamEnds.length;
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .request({ socketPath: idleProxy.socketPath, path: `http://127.0.0.1:${stallsPort}/left-pad` }, resolve)
        .on("error", reject)
        .end(),
    );
    expect(res.statusCode).toBe(200);
    res.on("error", () => {});
    res.resume();
    const upstream = upstreamEnds[before];
    const upstreamClosed = upstream ? closesWithin(upstream, IDLE_MS * 8) : Promise.resolve(null);
    expect(await closesWithin(res.socket, IDLE_MS * 8)).not.toBeNull();
    expect(await upstreamClosed).not.toBeNull();
  });
});
