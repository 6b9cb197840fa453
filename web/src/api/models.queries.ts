import { queryOptions } from "@tanstack/react-query";
import { api } from "./client";
import { unwrap } from "./errors";

export const modelsQuery = () =>
  queryOptions({ queryKey: ["ai-models"], queryFn: () => unwrap(api.ai.models.$get()), staleTime: 5 * 60_000 });
