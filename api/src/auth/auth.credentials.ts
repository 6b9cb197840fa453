import { loginCodes, oauthStates, sessions, type Db } from "@fixloop/db";
import { hashSecret, randomSecret } from "./secrets";

export const STATE_TTL_MS = 10 * 60_000;
export const LOGIN_CODE_TTL_MS = 60_000;

export type StatePurpose = oauthStates.StatePurpose;

/** Stores a new OAuth state bound to a browser secret; returns both raw values (only hashes are kept). */
export async function createOauthState(db: Db, purpose: StatePurpose, scopes: string[], userId: string | null) {
  const state = randomSecret();
  const binding = randomSecret();
  await oauthStates.create(db, {
    stateHash: hashSecret(state),
    bindingHash: hashSecret(binding),
    purpose,
    scopes,
    userId,
    expiresAt: new Date(Date.now() + STATE_TTL_MS),
  });
  return { state, binding };
}

/** Marks the state used if it exists, matches this browser, is unused and unexpired; otherwise says why not. */
export function consumeOauthState(db: Db, state: string, binding: string) {
  return oauthStates.consume(db, hashSecret(state), hashSecret(binding));
}

export async function createLoginCode(db: Db, userId: string, binding: string): Promise<string> {
  const code = randomSecret();
  await loginCodes.create(db, {
    codeHash: hashSecret(code),
    userId,
    bindingHash: hashSecret(binding),
    expiresAt: new Date(Date.now() + LOGIN_CODE_TTL_MS),
  });
  return code;
}

/**
 * Single use: the conditional update lets exactly one exchange win. Only the browser that started
 * the sign-in (same binding as the OAuth state) can exchange the code: no login CSRF.
 */
export function consumeLoginCode(db: Db, code: string, binding: string): Promise<string | null> {
  return loginCodes.consume(db, hashSecret(code), hashSecret(binding));
}

export async function createSession(
  db: Db,
  userId: string,
  ttlDays: number,
  userAgent: string | null,
): Promise<string> {
  const token = randomSecret();
  await sessions.create(db, {
    tokenHash: hashSecret(token),
    userId,
    userAgent,
    expiresAt: new Date(Date.now() + ttlDays * 86_400_000),
  });
  return token;
}
