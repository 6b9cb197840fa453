import { createElement, Fragment } from "react";
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
    const clashIds = all(clash, / id="([^"]*)"/g);
    expect(clashIds).not.toContain("root");
    const prefix = /^(user-content-[A-Za-z0-9]*-)fn-root$/.exec(
      clashIds.find((id) => id.endsWith("fn-root")) ?? "",
    )?.[1];
    expect(prefix).toBeDefined();
    expect(clash).toContain(`href="#${prefix}root"`);
    expect(clash).not.toMatch(/href="#(?!user-content-)/);
  });

  it("keep two blocks on one page apart when both number their notes alike", () => {
    // A timeline shows many comments; each may have its own `[^1]`.
    const note = (what: string) => `Fails on ${what}[^1].\n\n[^1]: Seen on ${what}.`;
    const page = renderToStaticMarkup(
      createElement(
        Fragment,
        null,
        createElement(Markdown, { children: note("save") }),
        createElement(Markdown, { children: note("load") }),
      ),
    );
    const pageIds = all(page, / id="([^"]*)"/g);
    // Each block has its note, its reference and its "Footnotes" label: none shared.
    expect(pageIds.length).toBe(6);
    expect(new Set(pageIds).size).toBe(pageIds.length);
    const blocks = page.split('<div class="markdown ').slice(1);
    expect(blocks).toHaveLength(2);
    for (const [i, block] of blocks.entries()) {
      const own = new Set(all(block, / id="([^"]*)"/g));
      const targets = all(block, /href="#([^"]*)"/g);
      expect(targets.length).toBe(2);
      // Every link of a block lands in that same block, on its own note.
      for (const t of targets) expect(own.has(t), t).toBe(true);
      const noteId = targets.find((t) => /fn-1$/.test(t)) ?? "";
      const noteText = new RegExp(`id="${noteId}"[^>]*>[\\s\\S]*?</li>`).exec(block)?.[0] ?? "";
      expect(noteText).toContain(i === 0 ? "Seen on save" : "Seen on load");
    }
  });
});
