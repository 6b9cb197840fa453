import { Duplex } from "node:stream";
import tls from "node:tls";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_FIRST_BYTES, readClientHello, tunnelRefusal } from "./sandbox.egress.tls";

/** The first bytes node:tls really sends for `servername` ("" sends none), captured off the wire. */
const helloFrom = (servername: string) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    const wire = new Duplex({
      read() {},
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk);
        done();
        // The whole first flight is written at once; the next turn has it all.
        setImmediate(() => {
          resolve(Buffer.concat(chunks));
          socket.destroy();
        });
      },
    });
    const socket = tls.connect({ socket: wire, servername, rejectUnauthorized: false });
    socket.on("error", () => {});
  });

/** A minimal well-formed ClientHello record carrying `extensions` ([type, data]), for the cases node never sends. */
function helloWith(extensions: [number, Buffer][]): Buffer {
  const u16 = (n: number) => Buffer.from([n >> 8, n & 255]);
  const ext = Buffer.concat(extensions.flatMap(([t, d]) => [u16(t), u16(d.length), d]));
  const body = Buffer.concat([
    Buffer.from([3, 3]),
    Buffer.alloc(32, 7),
    Buffer.from([0]),
    u16(2),
    Buffer.from([0x13, 0x01]),
    Buffer.from([1, 0]),
    u16(ext.length),
    ext,
  ]);
  const hs = Buffer.concat([Buffer.from([1, 0, body.length >> 8, body.length & 255]), body]);
  return Buffer.concat([Buffer.from([0x16, 3, 1]), u16(hs.length), hs]);
}
const sni = (name: string) => {
  const n = Buffer.from(name, "latin1");
  return Buffer.concat([Buffer.from([0, n.length + 3, 0, n.length >> 8, n.length & 255]), n]);
};

/**
 * `bytes` behind a guard that notes any access other than `length` and an index inside it: the
 * parser must not read past (or before) the buffer, nor reach it any other way.
 */
function guarded(bytes: Uint8Array) {
  const strays: string[] = [];
  const view = new Proxy(bytes, {
    get(target, key) {
      if (key !== "length") {
        const i = typeof key === "string" && /^\d+$/.test(key) ? Number(key) : -1;
        if (i < 0 || i >= target.length) strays.push(String(key));
      }
      return Reflect.get(target, key) as unknown;
    },
  });
  return { view, strays };
}

/** Parses `bytes` under the guard; fails the property when it throws or strays. */
function parsesSafely(bytes: Uint8Array) {
  const { view, strays } = guarded(bytes);
  const r = readClientHello(view);
  expect(strays).toEqual([]);
  expect(["hello", "not-tls", "incomplete", "malformed"]).toContain(r.kind);
  return r;
}

let real: Buffer;
let anonymous: Buffer;
beforeAll(async () => {
  real = await helloFrom("registry.npmjs.org");
  anonymous = await helloFrom("");
});

describe("reading the server name of a TLS ClientHello", () => {
  it("returns the name node:tls sends, or none when it sends none", async () => {
    expect(readClientHello(real)).toEqual({ kind: "hello", serverName: "registry.npmjs.org", encrypted: false });
    expect(readClientHello(anonymous)).toEqual({ kind: "hello", serverName: null, encrypted: false });
    await fc.assert(
      fc.asyncProperty(fc.domain(), async (name) => {
        const r = parsesSafely(await helloFrom(name));
        expect(r).toEqual({ kind: "hello", serverName: name, encrypted: false });
      }),
      { numRuns: 40 },
    );
  });

  it("never throws nor reads outside the buffer on random bytes, random records and mutated real hellos", () => {
    // Random bytes, mostly not TLS at all.
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (b) => void parsesSafely(b)),
      { numRuns: 300 },
    );
    // Random payloads behind a plausible record and handshake header, lengths right or wrong.
    const header = fc.tuple(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0xffffff }));
    fc.assert(
      fc.property(header, fc.uint8Array({ maxLength: 1024 }), ([rec, hs], body) => {
        const b = Buffer.concat([
          Buffer.from([0x16, 3, 1, rec >> 8, rec & 255, 1, hs >> 16, (hs >> 8) & 255, hs & 255]),
          body,
        ]);
        parsesSafely(b);
      }),
      { numRuns: 300 },
    );
    // Real hellos with bytes changed, cut, or inserted.
    const edit = fc.oneof(
      fc.record({ set: fc.nat(), to: fc.integer({ min: 0, max: 255 }) }),
      fc.record({ cut: fc.nat() }),
      fc.record({ at: fc.nat(), insert: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
    );
    fc.assert(
      fc.property(fc.constantFrom(real, anonymous), fc.array(edit, { minLength: 1, maxLength: 6 }), (base, edits) => {
        let b = Buffer.from(base);
        for (const e of edits) {
          if ("set" in e) b[e.set % b.length] = e.to;
          else if ("cut" in e) b = b.subarray(0, e.cut % (b.length + 1));
          else b = Buffer.concat([b.subarray(0, e.at % (b.length + 1)), e.insert, b.subarray(e.at % (b.length + 1))]);
          if (b.length === 0) break;
        }
        const r = parsesSafely(b);
        // Whatever name comes out is made of printable ASCII, at most 255 of it.
        if (r.kind === "hello" && r.serverName !== null) expect(r.serverName).toMatch(/^[\x21-\x7e]{1,255}$/);
      }),
      { numRuns: 1000 },
    );
    // Every prefix of a real hello asks for more, never for a verdict it cannot give yet.
    for (let i = 0; i < real.length; i++) expect(parsesSafely(real.subarray(0, i)).kind).toBe("incomplete");
  });

  it("refuses what a server could read differently: two names, a hidden name, a hello across records", () => {
    expect(readClientHello(helloWith([[0, sni("a.example")]]))).toMatchObject({ serverName: "a.example" });
    expect(
      readClientHello(
        helloWith([
          [0, sni("a.example")],
          [0, sni("b.example")],
        ]),
      ),
    ).toEqual({
      kind: "malformed",
      why: "two server_name extensions",
    });
    expect(
      readClientHello(
        helloWith([
          [0, sni("a.example")],
          [0xfe0d, Buffer.alloc(40, 9)],
        ]),
      ),
    ).toMatchObject({
      encrypted: true,
    });
    expect(readClientHello(helloWith([[0, sni("a\u0000b.example")]]))).toMatchObject({ kind: "malformed" });
    // The handshake claims more than its record holds (the rest would follow in a second record).
    const split = Buffer.from(real);
    split.writeUInt16BE(split.readUInt16BE(3) - 100, 3);
    expect(readClientHello(split.subarray(0, split.readUInt16BE(3) + 5))).toEqual({
      kind: "malformed",
      why: "ClientHello spans records",
    });
    expect(readClientHello(Buffer.from("GET / HTTP/1.1\r\n"))).toEqual({ kind: "not-tls" });
    expect(MAX_FIRST_BYTES).toBe(16 * 1024 + 5);
  });
});

describe("which tunnels pass, given the client's first bytes", () => {
  it("a ClientHello must name the CONNECT host, case and a trailing dot aside", async () => {
    expect(tunnelRefusal("registry.npmjs.org", 443, real, false)).toBeNull();
    expect(tunnelRefusal("Registry.NPMjs.org.", 443, real, false)).toBeNull();
    expect(tunnelRefusal("registry.npmjs.org", 443, await helloFrom("REGISTRY.npmjs.org."), false)).toBeNull();
    expect(tunnelRefusal("registry.npmjs.org", 443, await helloFrom("evil.example"), false)).toBe(
      "TLS server name evil.example does not match host",
    );
    // On any port, and for an address too (clients send no name for an address).
    expect(tunnelRefusal("registry.npmjs.org", 8443, await helloFrom("evil.example"), false)).toMatch(/does not match/);
    expect(tunnelRefusal("203.0.113.7", 443, await helloFrom("evil.example"), false)).toMatch(/does not match/);
    expect(tunnelRefusal("registry.npmjs.org", 443, helloWith([[0, sni("Evil<script>.example")]]), false)).toBe(
      "TLS server name Evil?script?.example does not match host",
    );
  });

  it("a name's tunnel needs TLS with a name on a web port; an address or another port may carry plain bytes", () => {
    expect(tunnelRefusal("registry.npmjs.org", 443, anonymous, false)).toBe("TLS ClientHello without a server name");
    expect(tunnelRefusal("registry.npmjs.org", 8443, anonymous, false)).toBe("TLS ClientHello without a server name");
    expect(tunnelRefusal("203.0.113.7", 443, anonymous, false)).toBeNull();
    const plain = Buffer.from("GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n");
    expect(tunnelRefusal("registry.npmjs.org", 443, plain, false)).toMatch(/^not TLS on a web port/);
    expect(tunnelRefusal("registry.npmjs.org", 80, plain, false)).toMatch(/^not TLS on a web port/);
    expect(tunnelRefusal("git.example.org", 9418, plain, false)).toBeNull();
    expect(tunnelRefusal("203.0.113.7", 80, plain, false)).toBeNull();
    expect(
      tunnelRefusal(
        "registry.npmjs.org",
        443,
        helloWith([
          [0, sni("registry.npmjs.org")],
          [0xfe0d, Buffer.alloc(9)],
        ]),
        false,
      ),
    ).toBe("TLS ClientHello with an encrypted server name");
  });

  it("waits for a whole record, and refuses one not completed in time or nothing where TLS is required", () => {
    expect(tunnelRefusal("registry.npmjs.org", 443, real.subarray(0, 40), false)).toBeUndefined();
    expect(tunnelRefusal("registry.npmjs.org", 443, real.subarray(0, 40), true)).toBe("incomplete TLS ClientHello");
    expect(tunnelRefusal("registry.npmjs.org", 443, [], false)).toBeUndefined();
    expect(tunnelRefusal("registry.npmjs.org", 443, [], true)).toBe("no TLS ClientHello in time");
    expect(tunnelRefusal("203.0.113.7", 5432, [], true)).toBeNull();
  });
});
