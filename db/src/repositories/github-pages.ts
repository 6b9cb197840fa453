/** The repository page `fullName` on the host of `stored` (a page link the sync read from GitHub). */
export function pageOf(stored: string, fullName: string): string {
  let origin = "https://github.com";
  try {
    const url = new URL(stored);
    if (url.protocol === "https:" || url.protocol === "http:") origin = url.origin;
  } catch {
    // Not a URL: GitHub's own host.
  }
  return `${origin}/${fullName}`;
}
