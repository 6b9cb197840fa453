import { useNavigate, useSearch } from "@tanstack/react-router";
import { useAuth } from "../../auth/auth";
import { PreferencesForm } from "../../shell/PreferencesDialog";
import { Card, PageHeader } from "../../ui/ui";
import { Tabs } from "../../ui/Tabs";
import { BillingTab, UsageTab } from "../billing";
import { ApiTokens } from "./ApiTokens";
import { OverviewTab } from "./OverviewTab";
import { PullRequestSettings } from "./PullRequestSettings";
import { CandidateSettings } from "../candidates/CandidateSettings";
import type { ProfileTab } from "./profile-tabs";

export function ProfileSettingsPage() {
  const { user } = useAuth();
  // The tab lives in the URL, so links can open a section and Back returns to the previous one.
  const tab: ProfileTab = useSearch({ from: "/_app/profile-settings" }).tab ?? "overview";
  const navigate = useNavigate({ from: "/profile-settings" });
  const setTab = (t: ProfileTab) => void navigate({ search: t === "overview" ? {} : { tab: t } });
  if (!user) return null;
  return (
    <>
      <PageHeader title="Profile Settings" />
      <Tabs
        idBase="profile"
        label="Profile sections"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "overview", label: "Overview" },
          { id: "usage", label: "Usage" },
          { id: "billing", label: "Billing" },
          { id: "settings", label: "Settings" },
        ]}
      />
      <div id="profile-panel" role="tabpanel" aria-labelledby={`profile-tab-${tab}`} className="space-y-4">
        {tab === "overview" && <OverviewTab user={user} />}
        {tab === "usage" && <UsageTab />}
        {tab === "billing" && <BillingTab />}
        {tab === "settings" && (
          <>
            <Card>
              <h2 className="mb-3 font-semibold">Preferences</h2>
              <PreferencesForm />
            </Card>
            <PullRequestSettings />
            <CandidateSettings />
            <ApiTokens />
          </>
        )}
      </div>
    </>
  );
}
