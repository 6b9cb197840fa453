export * from "./plans";
export * from "./risk";
export * from "./statuses";
export * from "./github-url";
export * from "./text";
export * from "./fairness";
