import crypto from "node:crypto";

export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export const randomId = (prefix: string, bytes = 12): string =>
  `${prefix}${crypto.randomBytes(bytes).toString("base64url")}`;

/** Roughly four characters a token, the usual rule of thumb for English and code. */
export const estimateTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

/** Text of a message `content` in either wire format: a string or an array of content blocks. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: unknown) => {
      if (!block || typeof block !== "object") return "";
      const b = block as { type?: unknown; text?: unknown; content?: unknown };
      if (typeof b.text === "string") return b.text;
      if (b.type === "tool_result") return contentText(b.content);
      return "";
    })
    .filter(Boolean)
    .join("\n");
}

export function asRecord(v: unknown): Record<string, unknown> | null {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}
