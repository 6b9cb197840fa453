import { register } from "tsx/esm/api";
register();
await import(process.env.W ?? "./w.ts");
