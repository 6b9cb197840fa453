import {
  FolderGit2,
  GitPullRequest,
  GitFork,
  LayoutDashboard,
  ListTodo,
  ShieldCheck,
  type LucideIcon,
} from "lucide-react";

export interface NavItem {
  to: "/dashboard" | "/repositories" | "/issues" | "/contribute" | "/validations" | "/pull-requests";
  label: string;
  Icon: LucideIcon;
  /** Second key of the "g then key" shortcut. */
  key: string;
}

export const NAV_ITEMS: NavItem[] = [
  { to: "/dashboard", label: "Dashboard", Icon: LayoutDashboard, key: "d" },
  { to: "/repositories", label: "Repositories", Icon: FolderGit2, key: "r" },
  { to: "/issues", label: "Issues", Icon: ListTodo, key: "i" },
  { to: "/contribute", label: "Contribute", Icon: GitFork, key: "c" },
  { to: "/validations", label: "Validations", Icon: ShieldCheck, key: "v" },
  { to: "/pull-requests", label: "Pull Requests", Icon: GitPullRequest, key: "p" },
];

/** Spec: an item is active when the path equals its link or starts with it. */
export function isActive(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(to);
}

export const SHORTCUTS: { keys: string; description: string }[] = [
  { keys: "Ctrl/⌘ + K", description: "Open the command palette (search issues, repositories, pages)" },
  { keys: "?", description: "Show keyboard shortcuts" },
  ...NAV_ITEMS.map((n) => ({ keys: `g then ${n.key}`, description: `Go to ${n.label}` })),
  { keys: "Esc", description: "Close a dialog or menu" },
];

/**
 * The rail expands for keyboard focus (`:focus-visible`), not for the focus a mouse click leaves
 * on a link, which kept it expanded after every click; it also stays open while the user menu is.
 */
export const RAIL_FOCUS = "has-[:focus-visible]:w-56 has-[[aria-expanded=true]]:w-56";
export const RAIL_FOCUS_LABEL = "group-has-[:focus-visible]:opacity-100 group-has-[[aria-expanded=true]]:opacity-100";
