/** The runs table's face: its transitions, its reads, the one run start and the per-user cap (each file imports only what it needs). */
export * from "./runs.repository";
export * from "./runs.reads";
export * from "./runs.start";
export * from "./runs.fairness";
export * from "./runs.claims";
