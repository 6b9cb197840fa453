import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./Markdown";
import { safeMarkdownUrl } from "./markdown-url";

const render = (md: string) => renderToStaticMarkup(createElement(Markdown, { children: md }));

describe("links and images in rendered issue text", () => {
  it("never point at this app: relative and root-relative URLs are dropped, with the unsafe protocols", () => {
    const hostile = [
      "![x](/api/github/repositories)",
      "![y](api/github/repositories/victim/repo/issues)",
      "[logs](/api/auth/github/repos?private=true)",
      "[up](../../settings)",
      "[back](/\\evil.example)",
      "[js](javascript:alert(1))",
      "![d](data:image/svg+xml;base64,PHN2Zz4=)",
    ].join("\n\n");
    const html = render(hostile);
    expect(html).not.toMatch(/(?:href|src)="(?!https?:)/);
    expect(html).not.toMatch(/\/api\/|settings|javascript|data:/);
  });

  it("keeps absolute web links, mail, fragments, and makes protocol-relative ones explicit", () => {
    const html = render(
      "[issue](https://github.com/o/r/issues/1) ![shot](https://example.com/a.png) [mail](mailto:a@b.c)",
    );
    expect(html).toContain('href="https://github.com/o/r/issues/1"');
    expect(html).toContain('src="https://example.com/a.png"');
    expect(html).toContain('href="mailto:a@b.c"');
    expect(safeMarkdownUrl("#note")).toBe("#note");
    expect(safeMarkdownUrl("//cdn.example/x.png")).toBe("https://cdn.example/x.png");
    expect(safeMarkdownUrl(" /api/x ")).toBe("");
  });
});
