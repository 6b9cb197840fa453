import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BLOCKED, MAX_REASONS, startEgressProxy, type EgressProxy } from "./sandbox.egress";
import { parseAllowedHosts } from "./sandbox.egress.policy";
import { DOWN, REGISTRY, egressClient, namesWorld } from "./sandbox.egress.names.testkit";

// Hostile: a networked setup opens tunnels to an allowed name and sends what it likes in them.
const world = namesWorld();
const { network, dialled } = world;
let proxy: EgressProxy;
const { tunnel, tlsVia, plainVia, forwarded, rawVia } = egressClient(() => proxy);

beforeAll(async () => {
  proxy = await startEgressProxy(
    parseAllowedHosts(["registry.example", "down.example", `127.0.0.1:${world.deadPort}`]),
    { network },
  );
});
afterAll(async () => {
  await proxy.close();
});

describe("a tunnel to a name on a web port", () => {
  it("judges the client's first bytes before dialling: a refused one never reaches the server", async () => {
    expect(await tlsVia("registry.example:443", "evil.example")).toMatch(/^ERR /);
    expect(await plainVia("registry.example:80", "GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n")).toBe("");
    expect(world.accepted).toBe(0);
    expect(dialled).toEqual([]);
    expect(proxy.blocked()).toEqual([
      "registry.example:443 (TLS server name evil.example does not match host)",
      "registry.example:80 (not TLS on a web port; send http:// URLs as proxy requests)",
    ]);
  });

  it("dials once the ClientHello names the host, and carries data both ways", async () => {
    const [acceptedBefore, dialledBefore] = [world.accepted, dialled.length];
    expect(await tlsVia("registry.example:443", "registry.example")).toBe("site=registry.example got=ping");
    expect(world.accepted - acceptedBefore).toBe(1);
    expect(dialled.slice(dialledBefore)).toEqual([`${REGISTRY}:443`]);
  });

  it("reports a server that is down with its cause: a name's tunnel closes after its hello, an address's and a forwarded request answer 502", async () => {
    expect(await tlsVia("down.example:443", "down.example")).toMatch(/^ERR /);
    // The 502s say which server could not be reached and why, to the setup's own log.
    expect(await rawVia(`CONNECT 127.0.0.1:${world.deadPort} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)).toMatch(
      new RegExp(
        `^HTTP/1.1 502 [^]*\r\n\r\nCould not reach 127\\.0\\.0\\.1:${world.deadPort} \\(could not connect: ECONNREFUSED\\)\n$`,
      ),
    );
    expect(await forwarded("http://down.example/left-pad")).toEqual({
      status: 502,
      body: "Could not reach down.example:80 (could not connect: ECONNREFUSED)\n",
    });
    expect(dialled.slice(-3)).toEqual([`${DOWN}:443`, `127.0.0.1:${world.deadPort}`, `${DOWN}:80`]);
    // The client saw only its TLS fail (or a bare 502): the step's list says which server and why.
    expect(proxy.blocked().filter((b) => b.includes("down.example") || b.includes(String(world.deadPort)))).toEqual([
      "down.example:443 (could not connect: ECONNREFUSED)",
      `127.0.0.1:${world.deadPort} (could not connect: ECONNREFUSED)`,
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
    const acceptedBefore = world.accepted;
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
    expect(world.accepted).toBe(acceptedBefore);
  });
});
