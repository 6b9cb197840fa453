import { queryOptions } from "@tanstack/react-query";
import { api } from "./client";
import { unwrap } from "./errors";

export const repositoriesQuery = () =>
  queryOptions({ queryKey: ["repositories"], queryFn: () => unwrap(api.github.repositories.$get()) });
