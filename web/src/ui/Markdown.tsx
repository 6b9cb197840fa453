import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import rehypeSanitize from "rehype-sanitize";
import { safeMarkdownUrl } from "./markdown-url";

export { InlineMarkdown } from "./InlineMarkdown";

// Issue text comes from anyone on GitHub: raw HTML is never parsed (no rehype-raw), the
// sanitizer keeps GitHub's allow-list, and unsafe link protocols and links into this app itself
// (relative URLs) are dropped (safeMarkdownUrl).
const components: Components = {
  // A link whose URL was dropped stays as its text.
  a: ({ node: _node, href, ...props }) =>
    href ? (
      <a {...props} href={href} target="_blank" rel="noopener noreferrer nofollow" />
    ) : (
      <span>{props.children}</span>
    ),
  img: ({ node: _node, alt, ...props }) => (
    <img {...props} alt={alt ?? ""} loading="lazy" referrerPolicy="no-referrer" />
  ),
};

/** GitHub-flavoured markdown (issue and pull-request bodies), rendered safely. */
export function Markdown({ children, className = "" }: { children: string; className?: string }) {
  return (
    <div className={`markdown ${className}`}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeSanitize]}
        components={components}
        urlTransform={safeMarkdownUrl}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}
