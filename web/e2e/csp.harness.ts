import type { Page } from "playwright-core";

/**
 * Collects every Content-Security-Policy violation the page reports: Chromium's console line
 * ("Refused to load ... because it violates the following Content Security Policy directive")
 * and the `securitypolicyviolation` event, for any document the page loads.
 */
export async function recordCspViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(`${page.url()}: ${m.text()}`);
  });
  await page.exposeFunction("__reportCspViolation", (line: string) => seen.push(line));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __reportCspViolation?: (l: string) => void }).__reportCspViolation;
      report?.(`${location.pathname}: ${e.effectiveDirective} blocked ${e.blockedURI}`);
    });
  });
  return seen;
}
