// A server process's memory and CPU as every bench reads them from /proc (Linux).
import { readFileSync } from 'node:fs';

/**
 * RSS now and its peak (VmHWM), in MB; and how much of the RSS is mapped from files (RssFile:
 * code, most of it the embedded ClickHouse's libchdb.so, ~200 MB once queries ran), which the
 * kernel can drop and share; RssAnon is the process's own memory.
 */
export function processMemory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024, fileMb: kb('RssFile') / 1024 };
}

/** CPU seconds so far (user + system, all threads): on a busy box a steadier figure than the wall clock. */
export function processCpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name, which is in parentheses and may hold ') ' itself.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 a second)
}
