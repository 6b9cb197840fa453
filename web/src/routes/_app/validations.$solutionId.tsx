import { createFileRoute } from "@tanstack/react-router";
import { Placeholder } from "../../features/placeholder/Placeholder";

export const Route = createFileRoute("/_app/validations/$solutionId")({ component: () => <Placeholder title="Validate Solution" /> });
