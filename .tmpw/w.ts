import { parentPort } from "node:worker_threads";
import { wordTerms } from "../worker/src/localize/tokenize";
const n: number = wordTerms("HelloWorld").length;
parentPort?.postMessage(n);
