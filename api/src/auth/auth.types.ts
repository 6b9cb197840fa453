/** The signed-in caller, as the auth middleware sets it on every request that needs one. */
export interface CurrentUser {
  id: string;
  username: string;
  email: string | null;
  avatarUrl: string | null;
  githubId: string;
  createdAt: Date;
  via: "session" | "token";
  sessionId?: string;
}
