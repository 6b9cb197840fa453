/** Job failures carry `code: message` in BullMQ's failedReason so the API can answer with the same code. */
export function jobFailure(err: { code: string; message: string }): string {
  return `${err.code}: ${err.message}`;
}

export function parseJobFailure(reason: string | undefined): { code: string; message: string } | null {
  const m = /^([a-z_]+\.[a-z_.]+): (.+)$/s.exec(reason ?? "");
  return m?.[1] && m[2] ? { code: m[1], message: m[2] } : null;
}
