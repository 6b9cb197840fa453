import { z } from "zod";

export const SessionRequest = z.object({ token: z.string().min(1).max(200) });
export type SessionRequest = z.infer<typeof SessionRequest>;

export const CallbackQuery = z.object({
  code: z.string().max(500).optional(),
  state: z.string().max(500).optional(),
  error: z.string().max(200).optional(),
});

export const ReposAuthQuery = z.object({ private: z.enum(["true", "false"]).default("false") });

/** The user as the API shows it; `isAdmin` (in ADMIN_GITHUB_LOGINS) shows the operations page in the menu. */
export function userView(
  u: {
    id: string;
    username: string;
    email: string | null;
    avatar_url?: string | null;
    avatarUrl?: string | null;
    created_at?: Date;
    createdAt?: Date;
  },
  isAdmin = false,
) {
  return {
    _id: u.id,
    username: u.username,
    email: u.email,
    avatarUrl: u.avatarUrl ?? u.avatar_url ?? null,
    createdAt: (u.createdAt ?? u.created_at ?? new Date(0)).toISOString(),
    isAdmin,
  };
}
