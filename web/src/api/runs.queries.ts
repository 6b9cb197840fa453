import { queryOptions } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { api } from "./client";
import { unwrap } from "./errors";

const one = api.runs[":id"];
export type Run = InferResponseType<typeof one.$get, 200>["run"];
export type RunStep = Run["steps"][number];

export const runQuery = (id: string) =>
  queryOptions({ queryKey: ["runs", id], queryFn: () => unwrap(one.$get({ param: { id } })).then((b) => b.run) });
