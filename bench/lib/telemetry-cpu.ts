import { readFileSync } from 'node:fs';

/**
 * CPU time (user + system, seconds) a process has used so far, read from /proc (Linux), so a bench can
 * measure the processes it started the way process.cpuUsage() measures itself. On a shared machine
 * CPU time per unit of work is steadier than wall time. Undefined where /proc is not there.
 */
export function processCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at state; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

/** The 1-minute load average (what `uptime` prints first), to print next to the figures. */
export function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}

/**
 * Node options that write V8 CPU profiles of the process into `<dir>/<name>` when it exits
 * (BENCH_CPU_PROF). One file per thread (the tsx loader runs in its own): the main thread's is the large one.
 */
export function cpuProfileArgs(dir: string | undefined, name: string): string[] {
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}/${name}`] : [];
}
