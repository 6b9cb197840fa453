export {
  createTestDatabase,
  createTestRedis,
  TEST_ENCRYPTION_KEYS,
  testPrefix,
  testRedisUrl,
  type TestDatabase,
} from "./context";
export {
  insertIssue,
  insertPullRequest,
  insertRun,
  insertUser,
  seedRepository,
  seedSolution,
  type SeedSolution,
} from "@fixloop/db/testing";
export { eventually, type EventuallyOptions } from "../src/eventually";
export { gitBranches, gitShow, gitTree } from "./git";
export { applyEdits, startTestSandbox, TestSandbox } from "./github-sandbox";
export { superviseTs } from "../src/processes";
