import { queryOptions } from "@tanstack/react-query";
import { request } from "./errors";
import type { Notification } from "./types";

export const notificationsQuery = () =>
  queryOptions({
    queryKey: ["notifications"],
    queryFn: () => request<{ notifications: Notification[] }>("/notifications"),
    refetchInterval: 60_000,
  });
