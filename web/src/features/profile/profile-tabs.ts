export const PROFILE_TABS = ["overview", "usage", "billing", "settings"] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];

/** The `?tab=` of /profile-settings; anything else reads as the overview. */
export const profileTabOf = (s: Record<string, unknown>): { tab?: ProfileTab } =>
  PROFILE_TABS.includes(s.tab as ProfileTab) && s.tab !== "overview" ? { tab: s.tab as ProfileTab } : {};
