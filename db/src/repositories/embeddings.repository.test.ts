import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import pg from "pg";
import { createTestDatabase } from "../../test/testing";
import { ensureDatabase } from "../database";
import { createDb } from "../client";
import { up } from "../migrations/2026-11-23T03-30-embedding-chunks";
import { findChunkVectors, saveChunkVectors, vectorStorage, type ChunkVector } from "./embeddings.repository";

const KEY = { repository: "hubot/markdown-lint", chunker: "lines-v1", model: "embed-small" };
const chunk = (blobSha: string, n: number, vector: number[]): ChunkVector => ({
  blobSha,
  chunk: n,
  startLine: n * 60 + 1,
  endLine: n * 60 + 60,
  vector,
});

/** A database and a role that may create tables but not extensions (no CREATE on the database, not a superuser). */
async function databaseWithoutExtensions() {
  const admin = inject("pgAdminUrl");
  const suffix = crypto.randomBytes(4).toString("hex");
  const role = `noext_${suffix}`;
  const url = await ensureDatabase(admin, `noext_${suffix}`);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`create role ${role} login password 'noext'`);
  await c.query(`grant usage, create on schema public to ${role}`);
  await c.end();
  const asRole = new URL(url);
  asRole.username = role;
  asRole.password = "noext";
  return createDb(asRole.toString(), { max: 2 });
}

describe("the embedding chunk cache", () => {
  it("falls back to a real[] table when pgvector cannot be installed, and round-trips vectors through it", async () => {
    const db = await databaseWithoutExtensions();
    try {
      await db.transaction().execute((trx) => up(trx));
      expect(await vectorStorage(db)).toBe("real[]");
      await saveChunkVectors(db, KEY, [chunk("b1", 0, [0.25, -0.5, 0.125]), chunk("b1", 1, [1, 0, 0])]);
      const found = await findChunkVectors(db, KEY, ["b1"]);
      expect(found.get("b1")).toEqual([chunk("b1", 0, [0.25, -0.5, 0.125]), chunk("b1", 1, [1, 0, 0])]);
    } finally {
      await db.destroy();
    }
  });

  it("keys vectors by repository, blob, chunking and model, and keeps the first of two writers", async () => {
    const { db } = await createTestDatabase();
    await saveChunkVectors(db, KEY, [chunk("b1", 0, [0.1, 0.2]), chunk("b2", 0, [0.3, 0.4])]);
    await saveChunkVectors(db, KEY, [chunk("b1", 0, [9, 9])]);
    await saveChunkVectors(db, { ...KEY, model: "other" }, [chunk("b1", 0, [0.5, 0.5])]);
    const found = await findChunkVectors(db, KEY, ["b1", "b2", "b3"]);
    expect([...found.keys()].sort()).toEqual(["b1", "b2"]);
    expect(found.get("b1")?.[0]?.vector.map((v) => Math.round(v * 1e6) / 1e6)).toEqual([0.1, 0.2]);
    expect((await findChunkVectors(db, { ...KEY, chunker: "lines-v2" }, ["b1"])).size).toBe(0);
    expect((await findChunkVectors(db, { ...KEY, repository: "octocat/other" }, ["b1"])).size).toBe(0);
    expect((await findChunkVectors(db, { ...KEY, model: "other" }, ["b1"])).get("b1")?.[0]?.vector).toEqual([0.5, 0.5]);
  });
});
