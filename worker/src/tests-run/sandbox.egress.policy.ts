import net from "node:net";
import os from "node:os";

/** Package registries a networked setup may reach when the operator sets nothing else. */
export const DEFAULT_ALLOWED_HOSTS = [
  "registry.npmjs.org",
  "registry.yarnpkg.com",
  "pypi.org",
  "files.pythonhosted.org",
  "crates.io",
  "static.crates.io",
  "index.crates.io",
  "proxy.golang.org",
  "sum.golang.org",
  "repo.maven.apache.org",
  "repo1.maven.org",
];

/**
 * One allowlist entry: a host name (ports 80 and 443, or the one given), `*.suffix` for its
 * subdomains, or an `ip:port` literal (`[v6]:port`), the only way to allow a private or
 * loopback address, and then only that port.
 */
type Entry =
  | { kind: "name"; host: string; ports: number[] }
  | { kind: "suffix"; suffix: string; ports: number[] }
  | { kind: "ip"; ip: string; port: number };

export interface EgressPolicy {
  entries: Entry[];
}

const WEB_PORTS = [80, 443];
const NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Splits `host:port` / `[v6]:port` / `host`; null when malformed. */
export function splitHostPort(s: string): { host: string; port: number | null } | null {
  const v6 = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/i.exec(s);
  if (v6) return { host: (v6[1] ?? "").toLowerCase(), port: v6[2] ? Number(v6[2]) : null };
  const m = /^([^:[\]]+)(?::(\d{1,5}))?$/.exec(s);
  if (!m) return null;
  const port = m[2] ? Number(m[2]) : null;
  if (port !== null && (port < 1 || port > 65535)) return null;
  return { host: (m[1] ?? "").toLowerCase().replace(/\.$/, ""), port };
}

/** Parses `SANDBOX_ALLOWED_HOSTS` (comma separated); throws on an entry it cannot read. */
export function parseAllowedHosts(list: string | string[]): EgressPolicy {
  const items = (Array.isArray(list) ? list : list.split(",")).map((s) => s.trim()).filter(Boolean);
  const entries: Entry[] = items.map((item) => {
    const hp = splitHostPort(item);
    if (!hp) throw new Error(`SANDBOX_ALLOWED_HOSTS: cannot read "${item}"`);
    if (net.isIP(hp.host)) {
      if (hp.port === null) throw new Error(`SANDBOX_ALLOWED_HOSTS: an address needs its port ("${item}:443")`);
      return { kind: "ip", ip: hp.host, port: hp.port };
    }
    const ports = hp.port === null ? WEB_PORTS : [hp.port];
    if (hp.host.startsWith("*.") && NAME.test(hp.host.slice(2)))
      return { kind: "suffix", suffix: hp.host.slice(1), ports };
    if (!NAME.test(hp.host)) throw new Error(`SANDBOX_ALLOWED_HOSTS: not a host name: "${item}"`);
    return { kind: "name", host: hp.host, ports };
  });
  return { entries };
}

/** How a request may proceed: connect to the name's public addresses, to one literal address, or not at all. */
export type Verdict = { ok: "resolve" } | { ok: "literal"; ip: string } | { ok: false; reason: string };

/** Whether the allowlist lets `host:port` through (the addresses are checked after resolving). */
export function allowedTarget(policy: EgressPolicy, host: string, port: number): Verdict {
  const h = host.toLowerCase().replace(/\.$/, "");
  if (net.isIP(h)) {
    const lit = policy.entries.find((e) => e.kind === "ip" && e.ip === h && e.port === port);
    return lit ? { ok: "literal", ip: h } : { ok: false, reason: "address not on the allowlist" };
  }
  const hit = policy.entries.some(
    (e) =>
      (e.kind === "name" && e.host === h && e.ports.includes(port)) ||
      (e.kind === "suffix" && h.endsWith(e.suffix) && e.ports.includes(port)),
  );
  return hit ? { ok: "resolve" } : { ok: false, reason: "host not on the allowlist" };
}

const FORBIDDEN = new net.BlockList();
for (const [a, p] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const)
  FORBIDDEN.addSubnet(a, p, "ipv4");
// IPv6: unspecified, loopback and IPv4-compatible (::/96), SIIT-translated IPv4, ULA, link- and
// site-local, multicast, NAT64 (well-known and local-use: they reach IPv4, private ranges included),
// 6to4, Teredo and documentation.
for (const [a, p] of [
  ["::", 96],
  ["::ffff:0:0:0", 96],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["2002::", 16],
  ["2001::", 32],
  ["2001:db8::", 32],
] as const)
  FORBIDDEN.addSubnet(a, p, "ipv6");

/** Addresses of the host's own interfaces (a service bound to one of them is the host too). */
function hostAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) out.add(a.address.toLowerCase());
  return out;
}

/** Why an address must not be reached from a sandbox (loopback, private, link-local, the host's own), or null: "a private…" / "an address of this host". */
export function forbiddenAddress(ip: string): string | null {
  let a = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(a);
  if (mapped) a = mapped[1] ?? a;
  else if (hex) {
    const n = (parseInt(hex[1] ?? "0", 16) << 16) | parseInt(hex[2] ?? "0", 16);
    a = [24, 16, 8, 0].map((s) => (n >>> s) & 255).join(".");
  }
  const family = net.isIP(a);
  if (!family) return "something that is not an address";
  if (FORBIDDEN.check(a, family === 4 ? "ipv4" : "ipv6")) return "a private, loopback or link-local address";
  if (hostAddresses().has(a)) return "an address of this host";
  return null;
}
