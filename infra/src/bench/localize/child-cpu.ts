import { readFileSync } from "node:fs";

/** Clock ticks per second of the times in /proc (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

/**
 * CPU seconds (user + system) used so far by this process's children that have ended and been
 * waited for, theirs included (`cutime` + `cstime` of /proc/self/stat): the difference around a
 * child's run is what that run cost, however loaded the machine was. `undefined` without /proc.
 */
export function childrenCpuSeconds(): number | undefined {
  let stat: string;
  try {
    stat = readFileSync("/proc/self/stat", "utf8");
  } catch {
    return undefined;
  }
  // Fields from the third (the state) on follow the command name, which may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const cutime = Number(fields[13]);
  const cstime = Number(fields[14]);
  return Number.isFinite(cutime) && Number.isFinite(cstime) ? (cutime + cstime) / USER_HZ : undefined;
}
