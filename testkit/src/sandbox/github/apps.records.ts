/** Access a GitHub App asks for, by permission name (`contents`, `issues`, …), `read` or `write`. */
export type AppPermissions = Record<string, "read" | "write">;

/** A GitHub App registered on the stand-in (the default one, or one made by the manifest flow). */
export interface AppRecord {
  id: number;
  slug: string;
  name: string;
  owner: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string | null;
  webhookUrl: string | null;
  /** Where GitHub sends the installer after an installation (`?installation_id=&setup_action=`). */
  setupUrl: string | null;
  callbackUrls: string[];
  /** The App's private key (PKCS#1 PEM): GitHub hands it out once; the stand-in keeps it to verify JWTs. */
  pem: string;
  permissions: AppPermissions;
  events: string[];
  createdAt: string;
}

/** An App installed on a user or organisation account, on all or selected repositories. */
export interface InstallationRecord {
  id: number;
  appId: number;
  /** Login of the account it is installed on. */
  account: string;
  repositorySelection: "all" | "selected";
  /** The repositories chosen (`selected`); ignored for `all`. */
  repoIds: number[];
  permissions: AppPermissions;
  events: string[];
  suspendedAt: string | null;
  suspendedBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An installation access token: an hour long, maybe narrowed to some repositories and permissions. */
export interface InstallationTokenRecord {
  token: string;
  installationId: number;
  /** Null: every repository of the installation. */
  repoIds: number[] | null;
  permissions: AppPermissions;
  expiresAt: number;
}

/** A manifest the operator confirmed on the stand-in's "Create GitHub App" page, waiting for its conversion. */
export interface ManifestCodeRecord {
  code: string;
  owner: string;
  manifest: Record<string, unknown>;
  expiresAt: number;
  used: boolean;
}

/** The App a fresh stand-in carries, so `npm start` runs the App flow offline. */
export const DEFAULT_APP = { id: 1, slug: "fixloop-sandbox", name: "Fixloop Sandbox" } as const;

/** What Fixloop's App asks for: write contents, pull requests, issues; read checks and metadata. */
export const DEFAULT_APP_PERMISSIONS: AppPermissions = {
  contents: "write",
  pull_requests: "write",
  issues: "write",
  checks: "read",
  metadata: "read",
};

export const DEFAULT_APP_EVENTS = [
  "issues",
  "pull_request",
  "pull_request_review",
  "pull_request_review_comment",
  "push",
  "check_run",
  "repository",
];
