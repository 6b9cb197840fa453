import { useId, useMemo } from "react";
import ReactMarkdown, { type Components, type Options } from "react-markdown";
import remarkGfm from "remark-gfm";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import { safeMarkdownUrl } from "./markdown-url";

export { InlineMarkdown } from "./InlineMarkdown";

// Issue text comes from anyone on GitHub: raw HTML is never parsed (no rehype-raw), the
// sanitizer keeps GitHub's allow-list, and unsafe link protocols and links into this app itself
// (relative URLs) are dropped (safeMarkdownUrl).
const components: Components = {
  // A link whose URL was dropped stays as its text; an in-page one (a footnote) jumps in place.
  a: ({ node: _node, href, ...props }) =>
    !href ? (
      <span>{props.children}</span>
    ) : href.startsWith("#") ? (
      <a {...props} href={href} />
    ) : (
      <a {...props} href={href} target="_blank" rel="noopener noreferrer nofollow" />
    ),
  img: ({ node: _node, alt, ...props }) => (
    <img {...props} alt={alt ?? ""} loading="lazy" referrerPolicy="no-referrer" />
  ),
};

/** The prefix the sanitizer gives every id (and name, aria reference) from issue text. */
const ID_PREFIX = defaultSchema.clobberPrefix ?? "user-content-";

/**
 * One block's id prefix: the sanitizer's, then the block's own, so two blocks on a page (the
 * comments of a timeline) that both have a note `[^1]` keep apart, each link jumping within its
 * own block. React's ids carry punctuation that has no place in a URL fragment.
 */
const blockPrefix = (reactId: string) => `${ID_PREFIX}${reactId.replace(/[^A-Za-z0-9]/g, "")}-`;

interface HastNode {
  type: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

/**
 * Points in-page links at the ids the sanitizer prefixed. The sanitizer prefixes every id so issue
 * text cannot clobber the app's own; footnotes are therefore made without remark's own prefix (it
 * would be applied twice to ids but once to links), and their `#fn-1` links get the one prefix here.
 */
function prefixFragmentLinks(prefix: string) {
  return () => {
    const walk = (n: HastNode) => {
      const href = n.properties?.href;
      if (n.tagName === "a" && typeof href === "string" && href.startsWith("#") && n.properties)
        n.properties.href = `#${prefix}${href.slice(1)}`;
      n.children?.forEach(walk);
    };
    return walk;
  };
}

/** GitHub-flavoured markdown (issue and pull-request bodies), rendered safely. */
export function Markdown({ children, className = "" }: { children: string; className?: string }) {
  const prefix = blockPrefix(useId());
  const rehypePlugins = useMemo<Options["rehypePlugins"]>(
    () => [[rehypeSanitize, { ...defaultSchema, clobberPrefix: prefix }], prefixFragmentLinks(prefix)],
    [prefix],
  );
  return (
    <div className={`markdown ${className}`}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        remarkRehypeOptions={{ clobberPrefix: "" }}
        rehypePlugins={rehypePlugins}
        components={components}
        urlTransform={safeMarkdownUrl}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}
