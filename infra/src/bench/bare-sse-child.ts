import { startBareSse } from "./bare-sse";

// The bare SSE baseline in its own process (like the API): sends {url}; {push: data} writes one event to every stream.
const sse = await startBareSse();
process.send?.({ url: sse.url });
process.on("message", (m: { push?: string }) => {
  if (m.push !== undefined) sse.push(m.push);
});
process.on("disconnect", () => void sse.stop().finally(() => process.exit(0)));
