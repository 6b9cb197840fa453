import { queryOptions } from "@tanstack/react-query";
import { request } from "./errors";
import type { Solution } from "./types";

export const pendingValidationsQuery = () =>
  queryOptions({ queryKey: ["validations", "pending"], queryFn: () => request<{ solutions: Solution[] }>("/validations/pending") });

export const solutionQuery = (id: string) =>
  queryOptions({
    queryKey: ["validations", id],
    queryFn: () => request<{ solution: Solution }>(`/validations/${encodeURIComponent(id)}`),
  });
