import pino, { type Logger } from "pino";

/** Paths never written to logs. */
export const REDACT_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "headers.authorization",
  "headers.cookie",
  "*.token",
  "*.accessToken",
  "*.access_token",
  "*.password",
  "*.secret",
];

export function createLogger(level: string, name: string): Logger {
  return pino({ name, level, redact: { paths: REDACT_PATHS, censor: "[redacted]" } });
}
export type { Logger };
