import type { RescoreFeatures } from "@fixloop/worker/localize";

/** A file's second-stage signals for a test: every signal 0 and every flag off unless given. */
export const featureRow = (path: string, f: Partial<RescoreFeatures> = {}): RescoreFeatures => ({
  path,
  lex: 0,
  pathMatch: 0,
  mention: 0,
  def: 0,
  usage: 0,
  graph: 0,
  title: 0,
  chunk: 0,
  chunkTitle: 0,
  docs: false,
  test: false,
  nonCode: false,
  stub: false,
  ...f,
});
