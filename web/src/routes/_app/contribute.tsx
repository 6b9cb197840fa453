import { createFileRoute } from "@tanstack/react-router";
import { ContributePage } from "../../features/contribute/ContributePage";

export const Route = createFileRoute("/_app/contribute")({ component: ContributePage });
