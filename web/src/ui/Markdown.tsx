import type { ReactNode } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import rehypeSanitize from "rehype-sanitize";

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

/** An issue title: plain text except `inline code`, as GitHub shows titles. */
export function InlineMarkdown({ children }: { children: string }): ReactNode {
  return children.split(/(`[^`]+`)/).map((part, i) =>
    part.length > 2 && part.startsWith("`") && part.endsWith("`") ? (
      <code key={i} className="rounded bg-slate-100 px-1 font-mono text-[0.9em] dark:bg-slate-800">
        {part.slice(1, -1)}
      </code>
    ) : (
      part
    ),
  );
}
