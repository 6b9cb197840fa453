/**
 * The JSON views the API serves and how it names and hashes a session, for processes that answer
 * the same way outside the app (the benchmark's bare-Hono baseline). The queries are db's.
 */
export { issueView } from "./issues/issues.views";
export { issueListPage } from "./issues/issues.list-cache";
export { presentRun, runActionsOf } from "./solve/runs.present";
export { SESSION_COOKIE, hashSecret } from "./auth/secrets";
