import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll } from "vitest";
import type { EgressNetwork, EgressProxy } from "./sandbox.egress";

// The world outside is a stand-in: the names resolve to public documentation addresses, and
// connections to those land on local servers, so the proxy's own checks run unchanged.
export const REGISTRY = "203.0.113.10";
export const DOWN = "203.0.113.11";

/**
 * registry.example (a TLS site) and down.example (a server that is down) for the egress proxy's
 * network, up for the file's tests. Ports are set once the file's `beforeAll` ran; `accepted` counts
 * the TCP connections the site accepted, whether or not a handshake followed, and `dialled` lists
 * every address the proxy dialled.
 */
export function namesWorld() {
  let site: tls.Server | undefined;
  const network: EgressNetwork = {
    lookup: async (host) => ({ "registry.example": [REGISTRY], "down.example": [DOWN] })[host] ?? [],
    connect: (ip, port) => {
      world.dialled.push(`${ip}:${port}`);
      return net.connect(ip === REGISTRY ? world.sitePort : world.deadPort, "127.0.0.1");
    },
  };
  const world = { sitePort: 0, deadPort: 0, accepted: 0, dialled: [] as string[], network };
  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-egress-names-"));
    const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
    const args = "req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=registry.example -days 1";
    execFileSync("openssl", [...args.split(" "), "-keyout", key, "-out", cert], { stdio: "ignore" });
    // Stands for the registry: it answers the first thing a client sends with the name it was reached by.
    const s = tls.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (c) =>
      c.once("data", (d: Buffer) => c.end(`site=${c.servername || "(none)"} got=${d.toString()}`)),
    );
    site = s;
    fs.rmSync(dir, { recursive: true, force: true });
    s.on("connection", () => world.accepted++);
    s.on("tlsClientError", () => {});
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
    world.sitePort = (s.address() as AddressInfo).port;
    // A port nothing listens on: a server that is down.
    const gone = net.createServer();
    await new Promise<void>((r) => gone.listen(0, "127.0.0.1", () => r()));
    world.deadPort = (gone.address() as AddressInfo).port;
    await new Promise<void>((r) => gone.close(() => r()));
  });
  afterAll(() => {
    site?.close();
  });
  return world;
}

/**
 * What a sandboxed client does through the egress proxy: through `proxy()` (the file's proxy, once
 * started) unless a helper is given another as `via`.
 */
export function egressClient(proxy: () => EgressProxy) {
  /** Opens a CONNECT tunnel as a sandboxed client does: the socket once answered 200, else the status. */
  const tunnel = (target: string, via = proxy()) =>
    new Promise<net.Socket | number>((resolve, reject) => {
      http
        .request({ socketPath: via.socketPath, method: "CONNECT", path: target, headers: { host: target } })
        .on("connect", (res: http.IncomingMessage, socket: net.Socket) =>
          resolve(res.statusCode === 200 ? socket : (res.statusCode ?? 0)),
        )
        .on("error", reject)
        .end();
    });

  const open = async (target: string, via = proxy()) => {
    const socket = await tunnel(target, via);
    if (typeof socket === "number") throw new Error(`CONNECT ${target} answered ${socket}`);
    return socket;
  };

  /** TLS through a tunnel to `target` naming `servername`, sending "ping": what came back, or how it failed. */
  const tlsVia = async (target: string, servername: string, via = proxy()) => {
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
  const plainVia = async (target: string, bytes: string, via = proxy()) => {
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
  const forwarded = (url: string, via = proxy()) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .request({ socketPath: via.socketPath, method: "GET", path: url }, (r) => {
          let body = "";
          r.on("data", (d: Buffer) => (body += d.toString()));
          r.on("end", () => resolve({ status: r.statusCode ?? 0, body }));
        })
        .on("error", reject)
        .end();
    });

  /** Bytes written straight to the proxy's socket: everything it answers until it closes. */
  const rawVia = (bytes: string, via = proxy()) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(via.socketPath);
      let got = "";
      socket.on("data", (d: Buffer) => (got += d.toString()));
      socket.on("error", reject);
      socket.on("close", () => resolve(got));
      socket.write(bytes);
    });

  return { tunnel, tlsVia, plainVia, forwarded, rawVia };
}
