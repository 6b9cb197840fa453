export * from "./schema";
export { createDb, type Db } from "./client";
export { migrateToLatest } from "./migrate";
