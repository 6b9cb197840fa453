import fs from "node:fs";

// Linux reports process times in clock ticks; USER_HZ is 100 on every architecture Node supports.
const TICK_MS = 10;

function children(pid: number): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim().split(/\s+/))
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * CPU time (user + system, ms) used so far by process `pid` and every process below it (`tsx`
 * runs the server as its child). Unlike requests per second, the CPU a request costs barely depends
 * on what else the machine runs. 0 where /proc is not there.
 */
export function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  let ticks: number;
  try {
    // Fields after the command (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    ticks = Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
  return ticks * TICK_MS + children(pid).reduce((n, c) => n + cpuMs(c), 0);
}
