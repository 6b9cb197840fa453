import crypto from "node:crypto";
import { inject, afterAll } from "vitest";
import { Redis } from "ioredis";

export { createTestDatabase, type TestDatabase } from "@fixloop/db/testing";

/** The token-encryption key every test process shares, so a worker can read what the API stored. */
export const TEST_ENCRYPTION_KEYS = `k1:${Buffer.alloc(32, 7).toString("base64")}`;

/** A key prefix unique to this test file, for BullMQ queues and run event streams. */
export function testPrefix(): string {
  return `t${crypto.randomBytes(5).toString("hex")}`;
}

export function testRedisUrl(): string {
  return inject("redisUrl");
}

/** A Redis connection closed after the file. */
export function createTestRedis(): Redis {
  const r = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
  afterAll(async () => {
    r.disconnect();
  });
  return r;
}
