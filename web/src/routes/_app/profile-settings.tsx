import { createFileRoute } from "@tanstack/react-router";
import { ProfileSettingsPage } from "../../features/profile/ProfileSettingsPage";

export const Route = createFileRoute("/_app/profile-settings")({ component: ProfileSettingsPage });
