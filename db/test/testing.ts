/** db's test support: a fresh migrated database per test file and rows seeded into it. Every package's tests reach it through @fixloop/testkit. */
export { createTestDatabase, type TestDatabase } from "./database";
export {
  insertIssue,
  insertPullRequest,
  insertRun,
  insertUser,
  seedRepository,
  seedSolution,
  type SeedSolution,
} from "./seed";
