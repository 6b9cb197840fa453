import { repositories, type Db } from "@fixloop/db";
import type { RepositoryTestSettings, RunSetupNetwork, SetupNetworkChoice } from "@fixloop/contract";
import { AppError } from "../http/errors";

const DEFAULTS: RepositoryTestSettings = { command: null, setup: null, timeoutSeconds: null, setupNetwork: false };

export const setupNetworkErrors = {
  noRepository: (names: string[]) =>
    new AppError(
      409,
      "setup_network.no_repository",
      `"Always" is stored in a repository's test settings, and Fixloop has none of ${names.join(" or ")} among your repositories yet: refresh your repositories, or allow once`,
    ),
};

/**
 * The user's answer to "this repository's setup wants network: allow once / always / never" for a
 * new run. "once" and "never" travel in the run's input; "always" goes into the test settings of the
 * issue's repository (an imported issue's fork when the user has no row for the upstream), which the
 * worker reads for every later run. Checked before the run starts; `save` runs once it exists.
 */
export async function setupNetworkChoice(
  db: Db,
  userId: string,
  issue: { repo_full_name: string; fork_full_name: string | null },
  choice: SetupNetworkChoice | undefined,
): Promise<{ input: { setupNetwork?: RunSetupNetwork }; save: () => Promise<void> }> {
  const none = async () => undefined;
  if (choice === undefined) return { input: {}, save: none };
  if (choice !== "always") return { input: { setupNetwork: choice }, save: none };
  const names = [issue.repo_full_name, ...(issue.fork_full_name ? [issue.fork_full_name] : [])];
  const row = await repositories.findFirstWithTestSettings(db, userId, names);
  if (!row) throw setupNetworkErrors.noRepository(names);
  return {
    input: {},
    save: () => repositories.saveTestSettings(db, row.id, { ...(row.testSettings ?? DEFAULTS), setupNetwork: true }),
  };
}
