import { config } from "zod";

// zod probes for eval support with `Function("")` before its first object parse; under our CSP
// (script-src without 'unsafe-eval') that probe is reported as a violation. Its interpreter is enough.
config({ jitless: true });
