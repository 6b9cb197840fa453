import net from "node:net";

/**
 * What a CONNECT tunnel's first bytes may be. The allowlist admits the CONNECT host, but one
 * address (a CDN's) serves many sites and picks the site by the TLS server name (SNI) the client
 * sends next: `CONNECT registry.npmjs.org:443` followed by a ClientHello naming `evil.example`
 * would reach evil.example. So the proxy reads the first TLS record and lets the tunnel through
 * only when its ClientHello names the CONNECT host. An HTTP Host header sent inside TLS cannot be
 * checked without intercepting TLS (which the proxy does not): a site that serves any Host behind
 * any certificate's name stays reachable that way.
 */

/** The most read before deciding: one TLS record (2^14 bytes of payload and its 5-byte header). */
export const MAX_FIRST_BYTES = 16 * 1024 + 5;
/** How long the client has to send its first record once it has started it (or, where TLS is required, at all). */
export const FIRST_BYTES_MS = 5_000;

export type HelloRead =
  /** A complete ClientHello; `encrypted` when it carries an encrypted inner hello (ECH/ESNI). */
  | { kind: "hello"; serverName: string | null; encrypted: boolean }
  /** The bytes cannot start a TLS handshake record. */
  | { kind: "not-tls" }
  /** A TLS record has begun; more bytes are needed. */
  | { kind: "incomplete" }
  | { kind: "malformed"; why: string };

const HANDSHAKE = 0x16;
const CLIENT_HELLO = 0x01;
const MAX_RECORD = 16 * 1024;
const EXT_SERVER_NAME = 0x0000;
// encrypted_client_hello (RFC 9849) and the draft ESNI: the name the server acts on is hidden.
const EXT_ENCRYPTED = new Set([0xfe0d, 0xffce]);

/**
 * Reads the server name from a TLS ClientHello at the start of `b`. Hostile input: reads only
 * `b[i]` for `i < b.length`, never throws, and every loop advances by at least four bytes.
 * Strict: the hello must sit in one record, lengths must add up exactly, and the server_name
 * extension must appear at most once and hold exactly one host_name.
 */
export function readClientHello(b: ArrayLike<number>): HelloRead {
  const n = b.length;
  const at = (i: number) => (i < n ? (b[i] ?? 0) : 0);
  const u16 = (i: number) => (at(i) << 8) | at(i + 1);
  if (n === 0) return { kind: "incomplete" };
  if (at(0) !== HANDSHAKE) return { kind: "not-tls" };
  if (n < 2) return { kind: "incomplete" };
  if (at(1) !== 0x03) return { kind: "not-tls" };
  if (n < 5) return { kind: "incomplete" };
  if (at(2) > 0x04) return { kind: "malformed", why: "record version" };
  const recordLength = u16(3);
  if (recordLength < 4 || recordLength > MAX_RECORD) return { kind: "malformed", why: "record length" };
  if (n < 5 + recordLength) return { kind: "incomplete" };

  if (at(5) !== CLIENT_HELLO) return { kind: "malformed", why: "not a ClientHello" };
  const helloLength = (at(6) << 16) | u16(7);
  if (helloLength > recordLength - 4) return { kind: "malformed", why: "ClientHello spans records" };
  const end = 9 + helloLength;
  // legacy_version and random
  let p = 9 + 2 + 32;
  if (p + 1 > end) return { kind: "malformed", why: "short ClientHello" };
  const sessionId = at(p);
  if (sessionId > 32) return { kind: "malformed", why: "session id" };
  p += 1 + sessionId;
  if (p + 2 > end) return { kind: "malformed", why: "short ClientHello" };
  const suites = u16(p);
  if (suites < 2 || suites % 2 !== 0) return { kind: "malformed", why: "cipher suites" };
  p += 2 + suites;
  if (p + 1 > end) return { kind: "malformed", why: "short ClientHello" };
  const compressions = at(p);
  if (compressions < 1) return { kind: "malformed", why: "compression methods" };
  p += 1 + compressions;
  if (p > end) return { kind: "malformed", why: "short ClientHello" };
  if (p === end) return { kind: "hello", serverName: null, encrypted: false };
  if (p + 2 > end || p + 2 + u16(p) !== end) return { kind: "malformed", why: "extensions length" };
  p += 2;

  let serverName: string | null = null;
  let sawServerName = false;
  let encrypted = false;
  while (p < end) {
    if (p + 4 > end) return { kind: "malformed", why: "extension header" };
    const type = u16(p);
    const length = u16(p + 2);
    const data = p + 4;
    p = data + length;
    if (p > end) return { kind: "malformed", why: "extension length" };
    if (EXT_ENCRYPTED.has(type)) encrypted = true;
    if (type !== EXT_SERVER_NAME) continue;
    // Two server_name extensions could be read differently here and by the server.
    if (sawServerName) return { kind: "malformed", why: "two server_name extensions" };
    sawServerName = true;
    // server_name_list: one entry, host_name (0), 1..255 printable ASCII bytes.
    if (length < 2 || u16(data) !== length - 2) return { kind: "malformed", why: "server_name list" };
    if (length < 5 || at(data + 2) !== 0) return { kind: "malformed", why: "server_name type" };
    const nameLength = u16(data + 3);
    if (nameLength < 1 || nameLength > 255 || data + 5 + nameLength !== p)
      return { kind: "malformed", why: "server_name length" };
    let name = "";
    for (let i = data + 5; i < p; i++) {
      const c = at(i);
      if (c < 0x21 || c > 0x7e) return { kind: "malformed", why: "server_name characters" };
      name += String.fromCharCode(c);
    }
    serverName = name;
  }
  return { kind: "hello", serverName, encrypted };
}

const bare = (h: string) => h.toLowerCase().replace(/\.$/, "");
const shown = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, "?").slice(0, 253);

/**
 * Whether a tunnel to `host:port` must begin with a TLS ClientHello naming `host`: a name on a
 * web port, where one address serves many sites. Elsewhere, plain bytes pass where the policy
 * already admits them (an `ip:port` entry admits that address itself, a `name:port` entry a port
 * the operator named for a non-web service), but a ClientHello there must still name the host.
 */
export function tunnelRequiresTls(host: string, port: number): boolean {
  return net.isIP(host) === 0 && (port === 443 || port === 80);
}

/**
 * Why the tunnel to `host:port` (already admitted by the allowlist) is refused given the client's
 * first bytes, null to let it through, or undefined while more bytes are needed. `final`: no more
 * will be waited for.
 *
 * - A ClientHello must name the CONNECT host (case aside, a trailing dot aside); one that hides
 *   the name (ECH: the outer name is not the one served) is refused, as every client the setups
 *   use sends a plain server name.
 * - Without a server name, a name's tunnel is refused (the shared address would pick the site);
 *   an address's passes (clients send no name for an address, RFC 6066).
 * - Not TLS: refused on a name's web port (plain HTTP there would choose its site by an unchecked
 *   Host header; http:// URLs go through the proxy as requests, which set Host), passed elsewhere.
 * - A record begun but not completed in time, or unreadable: refused.
 */
export function tunnelRefusal(
  host: string,
  port: number,
  first: ArrayLike<number>,
  final: boolean,
): string | null | undefined {
  const tls = tunnelRequiresTls(host, port);
  const r = readClientHello(first);
  switch (r.kind) {
    case "incomplete":
      if (!final) return undefined;
      if (first.length === 0) return tls ? "no TLS ClientHello in time" : null;
      return "incomplete TLS ClientHello";
    case "not-tls":
      return tls ? "not TLS on a web port; send http:// URLs as proxy requests" : null;
    case "malformed":
      return `unreadable TLS ClientHello (${r.why})`;
    case "hello":
      if (r.encrypted) return "TLS ClientHello with an encrypted server name";
      if (r.serverName === null) return net.isIP(host) ? null : "TLS ClientHello without a server name";
      return bare(r.serverName) === bare(host) ? null : `TLS server name ${shown(r.serverName)} does not match host`;
  }
}
