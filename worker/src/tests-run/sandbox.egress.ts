import dns from "node:dns/promises";
import fs from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream";
import { allowedTarget, forbiddenAddress, splitHostPort, type EgressPolicy } from "./sandbox.egress.policy";
import { FIRST_BYTES_MS, MAX_FIRST_BYTES, tunnelRefusal, tunnelRequiresTls } from "./sandbox.egress.tls";

/**
 * The only way out of a networked setup: an HTTP forward + CONNECT proxy on a Unix socket that
 * the sandbox gets bound in (its own network namespace has nothing but loopback). It lets through
 * hosts on the allowlist, resolves them itself and connects only to public addresses, so neither
 * the host's services (loopback, its own interfaces) nor the private and link-local ranges
 * (cloud metadata at 169.254.169.254) are reachable, whatever the sandbox's DNS or URL says.
 */
export interface EgressProxy {
  /** Host directory holding `proxy.sock` (bound into the sandbox). */
  dir: string;
  socketPath: string;
  /**
   * `host:port (reason)` of every refused request, and of every server that could not be reached
   * (`could not connect: ECONNREFUSED`), so the step says why a request failed: each distinct
   * reason of a target (up to MAX_REASONS), targets first seen first (up to MAX_BLOCKED).
   */
  blocked(): string[];
  close(): Promise<void>;
}

/** How many refused targets the list keeps, and how many distinct reasons each: a setup picks them. */
export const MAX_BLOCKED = 50;
export const MAX_REASONS = 4;
const MAX_CONNECTIONS = 128;
/** How long the proxy waits for an upstream server to accept a connection before giving up on it. */
const CONNECT_TIMEOUT_MS = 15_000;
/** How long a tunnel or forwarded request may pass no bytes either way before both sides are closed. */
export const IDLE_TIMEOUT_MS = 120_000;
const HOP_HEADERS = ["proxy-authorization", "proxy-connection", "connection", "keep-alive", "te", "trailer", "upgrade"];

/** How the proxy reaches the world outside the sandbox: names resolved, TCP connections opened. */
export interface EgressNetwork {
  /** The addresses `host` resolves to, in the resolver's order; none when it does not resolve. */
  lookup(host: string): Promise<string[]>;
  /** A TCP connection (still connecting) to `ip:port`. */
  connect(ip: string, port: number): net.Socket;
}

/** The worker's own resolver and network. */
export const SYSTEM_NETWORK: EgressNetwork = {
  lookup: (host) =>
    dns.lookup(host, { all: true, verbatim: true }).then(
      (addrs) => addrs.map((a) => a.address),
      () => [],
    ),
  connect: (ip, port) => net.connect({ host: ip, port }),
};

/** The address to dial for `host:port`, or why not. */
async function resolveTarget(
  policy: EgressPolicy,
  network: EgressNetwork,
  host: string,
  port: number,
): Promise<{ ip: string } | { reason: string }> {
  const v = allowedTarget(policy, host, port);
  if (v.ok === false) return { reason: v.reason };
  if (v.ok === "literal") return { ip: v.ip };
  const addrs = await network.lookup(host);
  if (!addrs.length) return { reason: "does not resolve" };
  const good = addrs.find((a) => forbiddenAddress(a) === null);
  return good ? { ip: good } : { reason: `resolves to ${forbiddenAddress(addrs[0] ?? "") ?? "a refused address"}` };
}

/**
 * Reads a tunnel's first bytes (`head`: those that came with the CONNECT) until tunnelRefusal
 * decides, at most one TLS record. The wait is bounded where TLS is required, and once a first
 * byte has come; elsewhere a server may speak first, so the client's first bytes are awaited
 * as long as the tunnel lasts. Null when the client went away first.
 */
function firstBytes(
  client: net.Socket,
  head: Buffer,
  host: string,
  port: number,
): Promise<{ bytes: Buffer; refusal: string | null } | null> {
  return new Promise((resolve) => {
    let bytes = head;
    let timer: NodeJS.Timeout | undefined;
    const stop = () => {
      clearTimeout(timer);
      client.pause();
      client.off("data", onData);
      client.off("close", onClose);
    };
    const decide = (final: boolean) => {
      const v = tunnelRefusal(host, port, bytes, final || bytes.length >= MAX_FIRST_BYTES);
      if (v !== undefined) {
        stop();
        resolve({ bytes, refusal: v });
      } else if (!timer && (bytes.length > 0 || tunnelRequiresTls(host, port)))
        timer = setTimeout(() => decide(true), FIRST_BYTES_MS);
    };
    const onData = (d: Buffer) => {
      bytes = Buffer.concat([bytes, d]);
      decide(false);
    };
    const onClose = () => {
      stop();
      resolve(null);
    };
    client.on("data", onData);
    client.on("close", onClose);
    client.resume();
    decide(false);
  });
}

/** A refused target as the step and the PR body show it: host name characters only. */
const printable = (s: string) => s.replace(/[^A-Za-z0-9._:[\]*-]/g, "?").slice(0, 200);

export interface EgressOptions {
  /** Closes a tunnel or forwarded request after this long without a byte either way (IDLE_TIMEOUT_MS). */
  idleMs?: number;
  /** Gives up on an upstream connect after this long (CONNECT_TIMEOUT_MS): 502, or the tunnel closed. */
  connectMs?: number;
  /** Where names resolve and connections go (SYSTEM_NETWORK); the policy's checks apply all the same. */
  network?: EgressNetwork;
}

/** Starts a proxy enforcing `policy`, listening on a fresh socket under the system temp dir. */
export async function startEgressProxy(policy: EgressPolicy, options: EgressOptions = {}): Promise<EgressProxy> {
  const idleMs = options.idleMs ?? IDLE_TIMEOUT_MS;
  const connectMs = options.connectMs ?? CONNECT_TIMEOUT_MS;
  const network = options.network ?? SYSTEM_NETWORK;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "fixloop-egress-"));
  await fs.chmod(dir, 0o755);
  const socketPath = path.join(dir, "proxy.sock");
  const blocked = new Map<string, string[]>();
  const open = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    open.add(s);
    s.on("close", () => open.delete(s));
  };
  const refuse = (target: string, reason: string) => {
    const key = printable(target);
    let reasons = blocked.get(key);
    if (!reasons) {
      if (blocked.size >= MAX_BLOCKED) return;
      blocked.set(key, (reasons = []));
    }
    if (reasons.length < MAX_REASONS && !reasons.includes(reason)) reasons.push(reason);
  };
  /**
   * A connection to the upstream server for `target` (the host:port asked for): connectMs to
   * connect, then closed after idleMs without a byte either way (whatever the proxy relays in
   * either direction crosses it). A connect that fails is listed with its cause: where the 200 has
   * gone out already, the client sees only its TLS fail, and a 502 says nothing of why.
   */
  const dial = (target: string, ip: string, port: number) => {
    const up = network.connect(ip, port);
    track(up);
    let connected = false;
    const down = (why: string) => {
      const reason = `could not connect: ${why}`;
      refuse(target, reason);
      downCause.set(up, reason);
    };
    up.setTimeout(connectMs);
    up.once("connect", () => {
      connected = true;
      up.setTimeout(idleMs);
    });
    up.on("error", (e: NodeJS.ErrnoException) => {
      if (!connected) down(printable(e.code ?? "error"));
    });
    up.on("timeout", () => {
      if (!connected) down(`no answer in ${connectMs / 1000} s`);
      up.destroy();
    });
    return up;
  };
  /** Why a dialled server could not be reached, as the 502's body says it to the client. */
  const downCause = new WeakMap<net.Socket, string>();
  const unreachable = (target: string, up: net.Socket | undefined) =>
    `Could not reach ${printable(target)} (${(up && downCause.get(up)) ?? "connection failed"})\n`;

  const server = http.createServer(async (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end("Only absolute http:// URLs are forwarded\n");
      return;
    }
    if (url.protocol !== "http:") {
      res.writeHead(400).end("Only http:// is forwarded; use CONNECT for https\n");
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const port = Number(url.port || 80);
    const t = await resolveTarget(policy, network, host, port);
    if ("reason" in t) {
      refuse(`${host}:${port}`, t.reason);
      res
        .writeHead(403, { "content-type": "text/plain" })
        .end(`Blocked by the sandbox: ${host}:${port} (${t.reason})\n`);
      return;
    }
    let socket: net.Socket | undefined;
    const headers = { ...req.headers };
    for (const h of HOP_HEADERS) delete headers[h];
    // The host the allowlist let through is the host asked for: a client's own Host header would
    // reach any other site served from the allowed address (a CDN's shared one).
    headers.host = url.host;
    const up = http.request(
      {
        host: t.ip,
        port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers,
        setHost: false,
        // Its own connection, closed with the request: no pooled socket outlives the idle timeout or the proxy.
        createConnection: () => (socket = dial(`${host}:${port}`, t.ip, port)),
      },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        // A response cut off upstream (idle, reset) closes the client's too, rather than leave it waiting.
        pipeline(r, res, () => {});
      },
    );
    up.on("error", () =>
      res.headersSent
        ? res.destroy()
        : res.writeHead(502, { "content-type": "text/plain" }).end(unreachable(`${host}:${port}`, socket)),
    );
    req.pipe(up);
  });

  server.on("connect", async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    track(client);
    client.on("error", () => client.destroy());
    // Every byte of the tunnel crosses the client's socket, read or written: idle there is idle both ways.
    client.setTimeout(idleMs, () => client.destroy());
    const hp = splitHostPort(req.url ?? "");
    if (!hp || hp.port === null) {
      client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
      return;
    }
    const t = await resolveTarget(policy, network, hp.host, hp.port);
    if ("reason" in t) {
      refuse(`${hp.host}:${hp.port}`, t.reason);
      client.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\nBlocked by the sandbox: ${hp.host}:${hp.port} (${t.reason})\n`,
      );
      return;
    }
    // The client went away while the name resolved: nothing to dial, nothing refused.
    if (client.destroyed) return;
    const port = hp.port;
    /** The client's first bytes once they pass (sandbox.egress.tls); null when refused or gone. */
    const judged = async () => {
      const first = await firstBytes(client, head, hp.host, port);
      if (first?.refusal === null) return first.bytes;
      if (first) refuse(`${hp.host}:${port}`, first.refusal);
      client.destroy();
      return null;
    };
    if (tunnelRequiresTls(hp.host, port)) {
      // The client sends its ClientHello only after the 200, and the server is dialled only once
      // the hello passes: a refused tunnel opens no connection (nor tells which servers are up).
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      const first = await judged();
      if (!first || client.destroyed) return;
      const up = dial(`${hp.host}:${port}`, t.ip, port);
      up.once("connect", () => {
        up.write(first);
        up.pipe(client);
        client.pipe(up);
      });
      // With the 200 sent there is no status left to answer: a server that cannot be reached closes
      // the tunnel (the client's TLS fails); dial lists why.
      up.on("error", () => {});
      up.on("close", () => client.destroy());
      client.on("close", () => up.destroy());
      return;
    }
    // A server may speak first here (an address's or a listed port's service): dial at once.
    const up = dial(`${hp.host}:${port}`, t.ip, port);
    let connected = false;
    up.once("connect", () => {
      connected = true;
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      up.pipe(client);
      // Nothing of the client's reaches the server before its first bytes pass.
      void judged().then((first) => {
        if (!first) return;
        if (first.length) up.write(first);
        client.pipe(up);
      });
    });
    // Reported through 'close', which also follows a connect timeout.
    up.on("error", () => {});
    up.on("close", () => {
      if (connected || client.destroyed) client.destroy();
      else
        client.end(
          `HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\n\r\n${unreachable(`${hp.host}:${port}`, up)}`,
        );
    });
    client.on("close", () => up.destroy());
  });
  server.on("connection", track);
  // One setup has no use for more; a flood stays the run's problem, not the worker's.
  server.maxConnections = MAX_CONNECTIONS;
  server.on("clientError", (_e, s) => s.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  // The sandbox user differs from the worker's: it must be able to connect.
  await fs.chmod(socketPath, 0o666);
  return {
    dir,
    socketPath,
    blocked: () => [...blocked].flatMap(([t, reasons]) => reasons.map((why) => `${t} (${why})`)),
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
