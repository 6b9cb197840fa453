export * from "./pipeline";
export * from "./jobs";
export * from "./generation";
export * from "./queues";
export * from "./tests";
