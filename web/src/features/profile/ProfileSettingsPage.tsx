import { useState } from "react";
import { useAuth } from "../../auth/auth";
import { PreferencesForm } from "../../shell/PreferencesDialog";
import { Card, PageHeader } from "../../ui/ui";
import { Tabs } from "../../ui/Tabs";
import { BillingTab, UsageTab } from "../billing";
import { ApiTokens } from "./ApiTokens";
import { OverviewTab } from "./OverviewTab";
import { PullRequestSettings } from "./PullRequestSettings";

type Tab = "overview" | "usage" | "billing" | "settings";

export function ProfileSettingsPage() {
  const { user } = useAuth();
  const [tab, setTab] = useState<Tab>("overview");
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
            <ApiTokens />
          </>
        )}
      </div>
    </>
  );
}
