import { z } from "zod";

/**
 * What the user chose for a repository whose `.fixloop.yml` asks for network during setup, where
 * the file cannot grant it itself (a repository the user does not own): "once" grants it to the
 * next run's setup only (recorded in that run's input), "always" stores it in the repository's
 * test settings, "never" (the default, also when nobody chose) keeps setup offline.
 */
export const SetupNetworkChoice = z.enum(["once", "always", "never"]);
export type SetupNetworkChoice = z.infer<typeof SetupNetworkChoice>;

/** The part of a choice a run's input carries ("always" lives in the repository's test settings). */
export type RunSetupNetwork = "once" | "never";

/** A run input's `setupNetwork`, read leniently (anything else: nobody chose). */
export function runSetupNetworkOf(stored: unknown): RunSetupNetwork | undefined {
  const v = (stored as { setupNetwork?: unknown } | null)?.setupNetwork;
  return v === "once" || v === "never" ? v : undefined;
}
