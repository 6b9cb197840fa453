import { useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { openLiveSource } from "../../api/live-source";
import { opsQuery, type OpsSnapshot } from "./ops.queries";

/**
 * Keeps the operations snapshot current from `/api/ops/stream` (a fresh snapshot every ~2 s) while
 * `enabled`, reconnecting also after a refusal (openLiveSource). Answers whether the stream is connected.
 */
export function useLiveOps(enabled: boolean): boolean {
  const qc = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    const close = openLiveSource("/api/ops/stream", (es) => {
      es.onopen = () => setLive(true);
      es.onerror = () => setLive(false);
      es.addEventListener("snapshot", (m: MessageEvent<string>) => {
        try {
          qc.setQueryData(opsQuery().queryKey, JSON.parse(m.data) as OpsSnapshot);
          setLive(true);
        } catch {
          console.warn("Ignored an operations snapshot whose data is not JSON");
        }
      });
    });
    return () => {
      close();
      setLive(false);
    };
  }, [enabled, qc]);
  return live;
}
