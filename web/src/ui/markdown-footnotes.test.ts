import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./Markdown";

const render = (md: string) => renderToStaticMarkup(createElement(Markdown, { children: md }));
const all = (html: string, re: RegExp) => [...html.matchAll(re)].map((m) => m[1] ?? "");

describe("footnotes in rendered issue text", () => {
  const html = render(
    [
      "Crashes on save[^1], also on load[^load] and with unicode[^ü].",
      "",
      "[^1]: Since 2.3.",
      "[^load]: Only large files.",
      "[^ü]: Names like Zoë.",
    ].join("\n"),
  );
  const ids = new Set(all(html, / id="([^"]*)"/g));
  const anchors = [...html.matchAll(/<a [^>]*>/g)].map((m) => m[0]);
  const inPage = anchors.filter((a) => a.includes('href="#'));

  it("link each reference to its note and each note back, to ids that exist", () => {
    // Three references and three back-links.
    expect(inPage).toHaveLength(6);
    for (const a of inPage) {
      // As a browser looks a fragment up: as written, then percent-decoded.
      const fragment = /href="#([^"]*)"/.exec(a)?.[1] ?? "";
      expect(ids.has(fragment) || ids.has(decodeURIComponent(fragment)), a).toBe(true);
      // An in-page link jumps in place rather than opening the page again in a new tab.
      expect(a).not.toContain("target=");
    }
    for (const ref of all(html, /aria-describedby="([^"]*)"/g)) expect(ids).toContain(ref);
  });

  it("keep every id from issue text prefixed once, so none can clobber the app's own", () => {
    expect(ids.size).toBeGreaterThan(0);
    for (const id of ids) expect(id).toMatch(/^user-content-(?!user-content-)/);
    const clash = render("See[^root] or [the app](#root).\n\n[^root]: A note named like an app id.");
    expect(all(clash, / id="([^"]*)"/g)).not.toContain("root");
    expect(all(clash, / id="([^"]*)"/g)).toContain("user-content-fn-root");
    expect(clash).toContain('href="#user-content-root"');
    expect(clash).not.toMatch(/href="#(?!user-content-)/);
  });
});
