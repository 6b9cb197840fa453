/**
 * The face of the API for the web app: `AppType` for the typed `hc` client, types only. The
 * shapes the browser receives, the error codes and the domain rules it renders with are the
 * contract's (`@fixloop/contract`).
 */
export type { AppType } from "./app";
