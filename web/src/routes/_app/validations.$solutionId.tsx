import { createFileRoute } from "@tanstack/react-router";
import { ValidatePage } from "../../features/validations/ValidatePage";

export const Route = createFileRoute("/_app/validations/$solutionId")({ component: ValidateRoute });

function ValidateRoute() {
  const { solutionId } = Route.useParams();
  return <ValidatePage key={solutionId} solutionId={solutionId} />;
}
