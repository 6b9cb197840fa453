/** Issue file: JSON `{title, body}`, or text whose first non-empty line is the title. */
export function splitIssue(text: string): { title: string; body: string } {
  try {
    const j = JSON.parse(text) as unknown;
    if (j && typeof j === "object" && "title" in j) {
      const { title, body } = j as { title?: unknown; body?: unknown };
      return { title: String(title ?? ""), body: typeof body === "string" ? body : "" };
    }
  } catch {
    // plain text
  }
  const trimmed = text.replace(/^\s+/, "");
  const nl = trimmed.indexOf("\n");
  return nl < 0
    ? { title: trimmed, body: "" }
    : { title: trimmed.slice(0, nl).replace(/^#+\s*/, ""), body: trimmed.slice(nl + 1) };
}
