import { createFileRoute } from "@tanstack/react-router";
import { Placeholder } from "../../features/placeholder/Placeholder";

export const Route = createFileRoute("/_app/repositories")({ component: () => <Placeholder title="Repositories" /> });
