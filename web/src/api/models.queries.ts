import { queryOptions } from "@tanstack/react-query";
import { request } from "./errors";
import type { AiModel } from "./types";

export const modelsQuery = () =>
  queryOptions({ queryKey: ["ai-models"], queryFn: () => request<{ allModels: AiModel[] }>("/ai/models"), staleTime: 5 * 60_000 });
