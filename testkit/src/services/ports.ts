import net from "node:net";

/** Returns `preferred` when it is free on 127.0.0.1, otherwise any free port. */
export async function pickPort(preferred = 0): Promise<number> {
  const tryListen = (port: number) =>
    new Promise<number | null>((resolve) => {
      const srv = net.createServer();
      srv.once("error", () => resolve(null));
      srv.listen(port, "127.0.0.1", () => {
        const addr = srv.address();
        const got = typeof addr === "object" && addr ? addr.port : null;
        srv.close(() => resolve(got));
      });
    });
  if (preferred > 0) {
    const got = await tryListen(preferred);
    if (got) return got;
  }
  const any = await tryListen(0);
  if (!any) throw new Error("No free TCP port on 127.0.0.1");
  return any;
}
