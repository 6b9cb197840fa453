import { describe, expect, it } from "vitest";
import { createTokenCipher } from "./token-cipher";

const k = (id: string, fill: number) => `${id}:${Buffer.alloc(32, fill).toString("base64")}`;

describe("token cipher", () => {
  it("round-trips and never stores the plain token", () => {
    const c = createTokenCipher(k("a", 1));
    const enc = c.encrypt("gho_secret", "u1");
    expect(enc.value).not.toContain("gho_secret");
    expect(c.decrypt(enc.keyId, enc.value, "u1")).toBe("gho_secret");
  });
  it("decrypts values made with an older key after rotation", () => {
    const old = createTokenCipher(k("a", 1)).encrypt("tok", "u1");
    const rotated = createTokenCipher(`${k("b", 2)},${k("a", 1)}`);
    expect(rotated.currentKeyId).toBe("b");
    expect(rotated.decrypt(old.keyId, old.value, "u1")).toBe("tok");
  });
  it("rejects tampered ciphertext", () => {
    const c = createTokenCipher(k("a", 1));
    const enc = c.encrypt("tok", "u1");
    const parts = enc.value.split(".");
    parts[3] = Buffer.from("xxx").toString("base64url");
    expect(() => c.decrypt("a", parts.join("."), "u1")).toThrow();
  });
  it("binds the ciphertext to its user: another user's row does not decrypt", () => {
    const c = createTokenCipher(k("a", 1));
    const enc = c.encrypt("gho_secret", "user-1");
    expect(() => c.decrypt(enc.keyId, enc.value, "user-2")).toThrow();
  });
  it("refuses a truncated authentication tag", () => {
    const c = createTokenCipher(k("a", 1));
    const parts = c.encrypt("tok", "u1").value.split(".");
    parts[2] = Buffer.from(parts[2] ?? "", "base64url")
      .subarray(0, 4)
      .toString("base64url");
    expect(() => c.decrypt("a", parts.join("."), "u1")).toThrow();
  });
});
