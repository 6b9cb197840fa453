/** A UTF-16 code unit of a surrogate pair standing alone: not Unicode text, and not storable. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");
// eslint-disable-next-line no-control-regex -- NUL is exactly what is matched
const NUL = /\u0000/g;
/**
 * In JSON text: an escaped NUL or surrogate (`\u0000`, `\ud800`). JSON.stringify escapes only lone
 * surrogates (pairs are written as characters); an even run of backslashes before it is text.
 */
const JSON_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/g;

/** True when `s` holds a lone surrogate (text no encoder can write as UTF-8). */
export const hasLoneSurrogate = (s: string): boolean => LONE_SURROGATE.test(s);

/**
 * Text as Postgres can store it: NUL and lone surrogates become U+FFFD (the replacement character),
 * so hostile input (test logs, model answers) reads as what it was instead of failing the write.
 */
export function storableText(s: string): string {
  return s.replace(NUL, "\uFFFD").replace(LONE_SURROGATES, "\uFFFD");
}

/** JSON text as a jsonb column accepts it: escaped NUL and lone surrogates become `\ufffd`. */
export function storableJson(json: string): string {
  return json.replace(JSON_ESCAPE, "$1\\ufffd");
}
