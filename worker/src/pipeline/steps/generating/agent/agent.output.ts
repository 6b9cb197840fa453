/** Escape sequences (colours, cursor moves) a terminal program prints. */
// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
const ANSI = /\u001B(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001B]*(?:\u0007|\u001B\\)|[@-Z\\-_])/g;
/** Control characters but tab and newline, and characters that do not show or reorder text. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\p{Cf}\u2028\u2029]/gu;

/**
 * What a tool hands back to the next turn is untrusted (repository files, test output, whatever a
 * command printed): escape sequences and hidden characters are stripped and it is cut to `max`
 * characters, keeping its start and its end.
 */
export function untrustedOutput(text: string, max: number): string {
  const clean = text.replace(/\r\n?/g, "\n").replace(ANSI, "").replace(HIDDEN, "");
  if (clean.length <= max) return clean;
  const head = Math.floor(max * 0.3);
  const tail = max - head;
  return `${clean.slice(0, head)}\n… [${clean.length - max} characters left out] …\n${clean.slice(-tail)}`;
}

/** The end of a text, for the trajectory's output tail. */
export const tailOf = (text: string, max: number): string => (text.length <= max ? text : `…${text.slice(-(max - 1))}`);
