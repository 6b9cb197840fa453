import { agentSection } from "./agent.section";
import { apiSection } from "./api.section";
import { approvePrSection } from "./approve-pr.section";
import { fairnessSection } from "./fairness.section";
import { largeRepoSection } from "./large-repo.section";
import { liveStreamSection } from "./live-stream.section";
import { localizeSection } from "./localize.section";
import { queueSection } from "./queue.section";
import { realSection } from "./real.section";
import { repoTransferSection } from "./repo-transfer.section";
import { sandboxNetworkSection } from "./sandbox-network.section";
import { sandboxSection } from "./sandbox.section";
import { scaleOutSection } from "./scale-out.section";
import { selectionSection } from "./selection.section";
import { webSection } from "./web.section";
import type { Section } from "./section.types";

export const SECTIONS: Section[] = [
  localizeSection,
  largeRepoSection,
  repoTransferSection,
  queueSection,
  scaleOutSection,
  fairnessSection,
  liveStreamSection,
  apiSection,
  approvePrSection,
  webSection,
  sandboxSection,
  sandboxNetworkSection,
  selectionSection,
  realSection,
  agentSection,
];
