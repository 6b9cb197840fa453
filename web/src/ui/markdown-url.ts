import { defaultUrlTransform } from "react-markdown";

/**
 * The URL a link or image in rendered markdown may keep. Issue bodies and review comments are
 * anyone's text: react-markdown already drops unsafe protocols (javascript:, data:, vbscript:),
 * and a relative or root-relative URL is dropped too. On this site it would point at the app
 * itself: `![x](/api/github/repositories)` made the browser call the API with the reader's
 * session just by showing the issue. A fragment (`#note`) stays, a protocol-relative URL becomes
 * an explicit https one.
 */
export function safeMarkdownUrl(url: string): string {
  const kept = defaultUrlTransform(url.trim());
  if (!kept) return "";
  if (kept.startsWith("#")) return kept;
  if (kept.startsWith("//")) return `https:${kept}`;
  return /^[a-z][a-z0-9+.-]*:/i.test(kept) ? kept : "";
}
