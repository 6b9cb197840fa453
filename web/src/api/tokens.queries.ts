import { queryOptions } from "@tanstack/react-query";
import { api } from "./client";
import { unwrap } from "./errors";

export const apiTokensQuery = () => queryOptions({ queryKey: ["tokens"], queryFn: () => unwrap(api.tokens.$get()) });
