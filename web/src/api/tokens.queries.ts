import { queryOptions } from "@tanstack/react-query";
import { request } from "./errors";
import type { ApiToken } from "./types";

export const apiTokensQuery = () =>
  queryOptions({ queryKey: ["tokens"], queryFn: () => request<{ tokens: ApiToken[] }>("/tokens") });
