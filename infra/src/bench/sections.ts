import type { Services } from "../services";
import type { Figure } from "./report";
import { apiSection } from "./api.section";
import { approvePrSection } from "./approve-pr.section";
import { largeRepoSection } from "./large-repo.section";
import { liveStreamSection } from "./live-stream.section";
import { localizeSection } from "./localize.section";
import { queueSection } from "./queue.section";
import { sandboxNetworkSection } from "./sandbox-network.section";
import { sandboxSection } from "./sandbox.section";
import { selectionSection } from "./selection.section";
import { webSection } from "./web.section";

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

export const SECTIONS: Section[] = [
  localizeSection,
  largeRepoSection,
  queueSection,
  liveStreamSection,
  apiSection,
  approvePrSection,
  webSection,
  sandboxSection,
  sandboxNetworkSection,
  selectionSection,
];
