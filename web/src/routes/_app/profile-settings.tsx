import { createFileRoute } from "@tanstack/react-router";
import { ProfileSettingsPage } from "../../features/profile/ProfileSettingsPage";
import { profileTabOf } from "../../features/profile/profile-tabs";

export const Route = createFileRoute("/_app/profile-settings")({
  validateSearch: profileTabOf,
  component: ProfileSettingsPage,
});
