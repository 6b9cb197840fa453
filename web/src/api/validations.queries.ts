import { queryOptions } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { api } from "./client";
import { unwrap } from "./errors";

const one = api.validations[":id"];
export type SolutionView = InferResponseType<typeof one.$get, 200>["solution"];
export type PreviousVersion = NonNullable<InferResponseType<typeof one.$get, 200>["previousVersion"]>;

export const pendingValidationsQuery = () =>
  queryOptions({ queryKey: ["validations", "pending"], queryFn: () => unwrap(api.validations.pending.$get()) });

export const solutionQuery = (id: string) =>
  queryOptions({ queryKey: ["validations", id], queryFn: () => unwrap(one.$get({ param: { id } })) });
