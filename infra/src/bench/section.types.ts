import type { Services } from "@fixloop/testkit/services";
import type { Figure } from "./report";

/** What a bench section is given and what it is; the list of sections is sections.ts. */
export interface BenchContext {
  dir: string;
  services: Services;
  /** Localization instance set: "small" (quick subset), "all", or "nonpy" (the non-Python set alone). */
  set: string;
  mirrors: string;
  /** Extra tables a section prints after the main one (e.g. per-repository figures). */
  appendix: string[];
}

export interface Section {
  name: string;
  run(ctx: BenchContext): Promise<Figure[]>;
}
