import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import rehypeSanitize from "rehype-sanitize";

export { InlineMarkdown } from "./InlineMarkdown";

// Issue text comes from anyone on GitHub: raw HTML is never parsed (no rehype-raw), the
// sanitizer keeps GitHub's allow-list, and unsafe link protocols are dropped by react-markdown.
const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" />,
  img: ({ node: _node, alt, ...props }) => (
    <img {...props} alt={alt ?? ""} loading="lazy" referrerPolicy="no-referrer" />
  ),
};

/** GitHub-flavoured markdown (issue and pull-request bodies), rendered safely. */
export function Markdown({ children, className = "" }: { children: string; className?: string }) {
  return (
    <div className={`markdown ${className}`}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]} components={components}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
