import { queryOptions } from "@tanstack/react-query";
import { api } from "./client";
import { unwrap } from "./errors";

export const notificationsQuery = () =>
  queryOptions({
    queryKey: ["notifications"],
    queryFn: () => unwrap(api.notifications.$get()),
    refetchInterval: 60_000,
  });
