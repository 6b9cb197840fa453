/** The runs table's face: its transitions, its reads and the one run start (each file imports only what it needs). */
export * from "./runs.repository";
export * from "./runs.reads";
export * from "./runs.start";
