import { describe, expect, it } from "vitest";
import { createTokenCipher } from "./token-cipher";

const k = (id: string, fill: number) => `${id}:${Buffer.alloc(32, fill).toString("base64")}`;

describe("token cipher", () => {
  it("round-trips and never stores the plain token", () => {
    const c = createTokenCipher(k("a", 1));
    const enc = c.encrypt("gho_secret");
    expect(enc.value).not.toContain("gho_secret");
    expect(c.decrypt(enc.keyId, enc.value)).toBe("gho_secret");
  });
  it("decrypts values made with an older key after rotation", () => {
    const old = createTokenCipher(k("a", 1)).encrypt("tok");
    const rotated = createTokenCipher(`${k("b", 2)},${k("a", 1)}`);
    expect(rotated.currentKeyId).toBe("b");
    expect(rotated.decrypt(old.keyId, old.value)).toBe("tok");
  });
  it("rejects tampered ciphertext", () => {
    const c = createTokenCipher(k("a", 1));
    const enc = c.encrypt("tok");
    const parts = enc.value.split(".");
    parts[3] = Buffer.from("xxx").toString("base64url");
    expect(() => c.decrypt("a", parts.join("."))).toThrow();
  });
});
