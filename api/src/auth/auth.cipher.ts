import { createTokenCipher, type TokenCipher } from "@fixloop/db";
import type { AppDeps } from "../deps";

const ciphers = new WeakMap<object, TokenCipher>();

/** The token cipher for this app's configured keys, built once per env. */
export function cipherFor(deps: AppDeps): TokenCipher {
  let cipher = ciphers.get(deps.env);
  if (!cipher) {
    cipher = createTokenCipher(deps.env.TOKEN_ENCRYPTION_KEYS);
    ciphers.set(deps.env, cipher);
  }
  return cipher;
}

/** What the worker's githubForUser needs, taken from the API's deps. */
export function githubUserContext(deps: AppDeps) {
  return { db: deps.db, cipher: cipherFor(deps), env: deps.env, logger: deps.logger };
}
