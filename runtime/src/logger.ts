import pino, { type DestinationStream, type Logger } from "pino";

/** Paths never written to logs, by the API and the worker alike. */
export const REDACT_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "headers.authorization",
  "headers.cookie",
  "*.authorization",
  "*.token",
  "*.accessToken",
  "*.access_token",
  "*.password",
  "*.secret",
];

/** A process's logger (JSON lines to stdout, or to `destination`), with the secrets above redacted. */
export function createLogger(level: string, name?: string, destination?: DestinationStream): Logger {
  const options = { name, level, redact: { paths: REDACT_PATHS, censor: "[redacted]" } };
  return destination ? pino(options, destination) : pino(options);
}
export type { Logger };
