import { queryOptions } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";

export type OpsSnapshot = InferResponseType<typeof api.ops.$get, 200>;
export type OpsQueue = OpsSnapshot["queues"][number];
export type OpsWorker = OpsSnapshot["workers"][number];
export type OpsLostWorker = OpsSnapshot["lostWorkers"][number];
export type OpsRun = OpsSnapshot["runs"][number];

/** The operations snapshot: the first paint; the live stream keeps it current afterwards. */
export const opsQuery = () =>
  queryOptions({ queryKey: ["ops"], queryFn: () => unwrap(api.ops.$get()), retry: false, staleTime: Infinity });
