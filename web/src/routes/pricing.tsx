import { createFileRoute } from "@tanstack/react-router";
import { Placeholder } from "../features/placeholder/Placeholder";

export const Route = createFileRoute("/pricing")({ component: () => <Placeholder title="Pricing" /> });
