import { createFileRoute } from "@tanstack/react-router";
import { Placeholder } from "../../features/placeholder/Placeholder";

export const Route = createFileRoute("/_app/profile-settings")({ component: () => <Placeholder title="Profile Settings" /> });
