export * from "./schema";
export { createDb, type Db } from "./client";
export { migrateToLatest } from "./migrate";
export { createTokenCipher, type TokenCipher } from "./crypto/token-cipher";
export * as domain from "./domain";
