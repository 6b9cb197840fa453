import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEgressProxy, type EgressProxy } from "./sandbox.egress";
import { parseAllowedHosts } from "./sandbox.egress.policy";

let upstream: http.Server;
let port: number;
let proxy: EgressProxy;

beforeAll(async () => {
  // Stands for an allowed registry on a shared address: it answers with the Host it was asked for.
  upstream = http.createServer((req, res) => res.end(`host=${req.headers.host}`));
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", () => r()));
  port = (upstream.address() as AddressInfo).port;
  proxy = await startEgressProxy(parseAllowedHosts([`127.0.0.1:${port}`]));
});
afterAll(async () => {
  await proxy.close();
  upstream.close();
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
