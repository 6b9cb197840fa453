import { createFileRoute } from "@tanstack/react-router";
import { ValidationsPage } from "../../features/validations/ValidationsPage";

export const Route = createFileRoute("/_app/validations/")({ component: ValidationsPage });
