// CPU time of processes, read from /proc: what a download costs on a machine
// whose cores are saturated, where throughput follows it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime. */
export const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** Pids of the processes named exactly `name`; none when it is not running here (a server given by URL). */
export function pidsByName(name) {
  try {
    return execFileSync('pgrep', ['-x', '-d', ' ', name], { encoding: 'utf8' }).trim().split(' ').map(Number);
  } catch {
    return [];
  }
}

/** User and system ticks used so far by `pids` together (a process that ended adds nothing). */
export function cpuTicks(pids) {
  return pids.reduce((sum, pid) => {
    try {
      const fields = statFields(pid);
      return sum + fields.utime + fields.stime;
    } catch {
      return sum; // a postgres backend that ended
    }
  }, 0);
}

/**
 * User and system ticks of this process and of its children that have ended and been waited for
 * (a client the bench spawned and awaited, like a CLI run): /proc/self/stat's utime, stime, cutime, cstime.
 */
export function ownAndChildrenTicks() {
  const fields = statFields('self');
  return fields.utime + fields.stime + fields.cutime + fields.cstime;
}

/** User and system ticks of this process's children that have ended and been waited for (cutime, cstime). */
export function childrenTicks() {
  const fields = statFields('self');
  return fields.cutime + fields.cstime;
}

/** The CPU fields of /proc/<pid>/stat, in ticks (counted after the command name, which may hold spaces). */
function statFields(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { utime: Number(fields[11]), stime: Number(fields[12]), cutime: Number(fields[13]), cstime: Number(fields[14]) };
}
