import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEgressProxy, type EgressNetwork, type EgressProxy } from "./sandbox.egress";
import { parseAllowedHosts } from "./sandbox.egress.policy";
import { REGISTRY, egressClient, namesWorld } from "./sandbox.egress.names.testkit";

// Hostile: the allowlist names a host, and whoever controls its DNS points it inside: at the
// host's loopback, a private network, the cloud metadata address (DNS rebinding). The resolver is
// the test's own; the proxy's checks and its dialling are its real ones.
const world = namesWorld();
const { dialled } = world;

/** Each name's answers, one per lookup (the last repeats): a rebinding name answers differently each time. */
const ANSWERS: Record<string, string[][]> = {
  "loopback.example": [["127.0.0.1"]],
  "loopback6.example": [["::1"]],
  "private.example": [["10.1.2.3"]],
  "lan.example": [["192.168.1.20"]],
  "metadata.example": [["169.254.169.254"]],
  "cgnat.example": [["100.64.0.1"]],
  "ula.example": [["fd00::1"]],
  "mapped.example": [["::ffff:127.0.0.1"]],
  "nat64.example": [["64:ff9b::a9fe:a9fe"]],
  // Every answer inside, in both families, as a resolver may give them.
  "all-private.example": [["10.0.0.1", "fe80::1", "172.16.0.1"]],
  // Public once (the first look), then the host's loopback.
  "rebind.example": [[REGISTRY], ["127.0.0.1"]],
  // A private address listed before a public one.
  "mixed.example": [["127.0.0.1", "10.0.0.7", REGISTRY]],
};
const HOSTILE = Object.keys(ANSWERS).filter((n) => n !== "rebind.example" && n !== "mixed.example");
/** This machine's own non-loopback address, when it has one: reached by name, it is the host too. */
const own = Object.values(os.networkInterfaces())
  .flatMap((l) => l ?? [])
  .find((a) => a.family === "IPv4" && !a.internal)?.address;
if (own) ANSWERS["own.example"] = [[own]];

const looked: string[] = [];
const network: EgressNetwork = {
  lookup: async (host) => {
    looked.push(host);
    const queue = ANSWERS[host];
    if (!queue) return [];
    return (queue.length > 1 ? queue.shift() : queue[0]) ?? [];
  },
  connect: (ip, port) => world.network.connect(ip, port),
};

let proxy: EgressProxy;
const { tunnel, tlsVia, forwarded } = egressClient(() => proxy);

beforeAll(async () => {
  proxy = await startEgressProxy(parseAllowedHosts(Object.keys(ANSWERS)), { network });
});
afterAll(async () => {
  await proxy.close();
});

describe("an allowed name that resolves inside", () => {
  it("is refused over CONNECT and as a forwarded request, before any connection is opened", async () => {
    const names = own ? [...HOSTILE, "own.example"] : HOSTILE;
    for (const name of names) {
      expect(await tunnel(`${name}:443`), name).toBe(403);
      const r = await forwarded(`http://${name}/latest/meta-data/`);
      expect(r.status, name).toBe(403);
      expect(r.body, name).toMatch(
        /^Blocked by the sandbox: .*\(resolves to (a private, loopback or link-local address|an address of this host)\)\n$/,
      );
    }
    expect(dialled).toEqual([]);
    expect(world.accepted).toBe(0);
    const blocked = proxy.blocked();
    for (const name of HOSTILE) {
      expect(blocked, name).toContain(`${name}:443 (resolves to a private, loopback or link-local address)`);
      expect(blocked, name).toContain(`${name}:80 (resolves to a private, loopback or link-local address)`);
    }
    if (own) expect(blocked).toContain("own.example:443 (resolves to an address of this host)");
  });

  it("dials the public address it checked, never a name looked up again: a name rebound after its first answer is refused", async () => {
    const before = looked.filter((h) => h === "rebind.example").length;
    // The first look answers a public address: the tunnel reaches the site there.
    expect(await tlsVia("rebind.example:443", "rebind.example")).toBe("site=rebind.example got=ping");
    expect(dialled).toEqual([`${REGISTRY}:443`]);
    // One lookup for the request: the connection went to the address that was judged.
    expect(looked.filter((h) => h === "rebind.example").length - before).toBe(1);
    // Now the name points at the host's loopback.
    expect(await tunnel("rebind.example:443")).toBe(403);
    expect((await forwarded("http://rebind.example/")).status).toBe(403);
    expect(dialled).toEqual([`${REGISTRY}:443`]);
    expect(proxy.blocked()).toContain("rebind.example:443 (resolves to a private, loopback or link-local address)");
  });

  it("passes over the private addresses of a mixed answer and dials only its public one", async () => {
    const before = dialled.length;
    expect(await tlsVia("mixed.example:443", "mixed.example")).toBe("site=mixed.example got=ping");
    expect(dialled.slice(before)).toEqual([`${REGISTRY}:443`]);
  });
});
