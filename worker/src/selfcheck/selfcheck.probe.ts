/**
 * The script the self-check runs inside the sandbox (node, which every worker's sandbox binds):
 * it tries to reach the host, read host files and open a user namespace, and prints what got through.
 * Input is `probe.json` in the workspace; output is one `SELFCHECK {json}` line.
 */
export const PROBE_SCRIPT = String.raw`
const net = require("node:net"), fs = require("node:fs"), cp = require("node:child_process");
const cfg = JSON.parse(fs.readFileSync("probe.json", "utf8"));
const connect = (host, port) => new Promise((done) => {
  const s = net.connect({ host, port, timeout: 1500 });
  s.on("connect", () => { s.destroy(); done(true); });
  s.on("error", () => done(false));
  s.on("timeout", () => { s.destroy(); done(false); });
});
(async () => {
  const reached = [];
  for (const h of cfg.hosts) if (await connect(h, cfg.port)) reached.push(h + ":" + cfg.port);
  const visible = cfg.paths.filter((p) => { try { fs.accessSync(p); return true; } catch { return false; } });
  const u = cp.spawnSync("unshare", ["-U", "true"], { stdio: "ignore" });
  const userns = u.error ? "unshare not found" : u.status === 0 ? "unshare -U succeeded" : null;
  console.log("SELFCHECK " + JSON.stringify({ reached, visible, userns }));
})();
`;

/**
 * Through the egress proxy: asks it for private addresses (the host's listener, cloud metadata) and
 * an allowed name that resolves to one, prints each status line (a refusal's with its reason).
 */
export const EGRESS_SCRIPT = String.raw`
const net = require("node:net"), fs = require("node:fs");
const cfg = JSON.parse(fs.readFileSync("probe.json", "utf8"));
const ask = (target) => new Promise((done) => {
  const s = net.connect({ host: "127.0.0.1", port: cfg.proxyPort, timeout: 8000 });
  let got = "";
  s.on("connect", () => s.write("CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n\r\n"));
  // A refusal ends with its reason; anything else is answered once its status line is in.
  const refusal = () => /^HTTP\/1\.[01] 403 /.test(got);
  s.on("data", (d) => { got += d; if (got.includes("\r\n") && !refusal()) { s.destroy(); done(got.split("\r\n")[0]); } });
  s.on("close", () => done(got.split("\r\n")[0] + " | " + (got.split("\r\n\r\n")[1] || "").trim()));
  s.on("error", (e) => done("error " + e.code));
  s.on("timeout", () => { s.destroy(); done("timeout"); });
});
(async () => {
  const answers = {};
  for (const t of cfg.targets) answers[t] = await ask(t);
  console.log("SELFCHECK " + JSON.stringify({ answers }));
})();
`;

/** The limit attacks, each in its own run (a wall that kills the run must not hide the others' answers). */
export const LIMIT_SCRIPTS = {
  // tail keeps the last N bytes in memory: far past the sandbox's memory, it must be stopped.
  memory: "echo STARTED; head -c 400000000 /dev/zero | tail -c 400000000 >/dev/null && echo ESCAPED",
  // More processes than the limit allows, all alive at once.
  processes:
    "echo STARTED; n=0; for i in $(seq 64); do sleep 2 & n=$((n+1)); done; [ $n -ge 64 ] && [ $(jobs -p | wc -l) -ge 64 ] && echo ESCAPED",
  // Files past the disk budget (each under the file-size limit), then time for the budget's watch to see them.
  disk: "echo STARTED; for i in 1 2 3 4 5 6; do head -c 8000000 /dev/zero > f$i || exit 1; done; sleep 3; echo ESCAPED",
} as const;
