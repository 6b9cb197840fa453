import type { Complexity } from "../steps";

const RANK: Record<Complexity, number> = { simple: 0, medium: 1, complex: 2 };
/** At most this many changed lines in one file is a simple change, whatever the issue text suggested. */
export const SIMPLE_CHANGE_LINES = 10;
/** At most this many changed lines over at most MEDIUM_CHANGE_FILES files is at most a medium change. */
export const MEDIUM_CHANGE_LINES = 80;
export const MEDIUM_CHANGE_FILES = 3;

/**
 * A solution's complexity: the analysing step estimates it from the issue text before any change
 * exists (long text, many paths, "architecture"…); once the change is known its size bounds that
 * estimate, so a one-line fix never reads "complex". A large change does not raise the estimate:
 * its size is shown beside it.
 */
export function complexityOfChange(
  estimated: Complexity,
  stats: { filesChanged: number; linesAdded: number; linesRemoved: number },
): Complexity {
  const lines = stats.linesAdded + stats.linesRemoved;
  const bound: Complexity =
    stats.filesChanged <= 1 && lines <= SIMPLE_CHANGE_LINES
      ? "simple"
      : stats.filesChanged <= MEDIUM_CHANGE_FILES && lines <= MEDIUM_CHANGE_LINES
        ? "medium"
        : "complex";
  return RANK[bound] < RANK[estimated] ? bound : estimated;
}
