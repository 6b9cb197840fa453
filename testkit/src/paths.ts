import path from "node:path";
import url from "node:url";

/** Repository root (the folder holding the workspaces). */
export const ROOT = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../..");
export const DATA_DIR = path.join(ROOT, ".data");
