/**
 * The CPU time of a local Elasticsearch server, so a benchmark that indexes on the same machine
 * can say how much of the machine the server took (on 2 cores it competes with Folio for them).
 */
import { readFile } from 'node:fs/promises';

/** Clock ticks per second of `/proc/<pid>/stat` times: 100 on every Linux Node.js runs on. */
const CLOCK_TICKS = 100;

export interface ProcessMeter {
  readonly pid: number;
  /** CPU seconds (user + system, all threads) the process has used since it started. */
  cpuSeconds(): Promise<number>;
}

/**
 * A meter for the Elasticsearch node behind `url` when it runs on this machine (its pid from
 * `_nodes/_local/process`, its times from `/proc`); undefined when it does not, or when `/proc`
 * cannot be read.
 *
 * @example
 * const es = await elasticsearchMeter('http://127.0.0.1:9200')
 * const before = await es?.cpuSeconds()
 */
export async function elasticsearchMeter(url: string): Promise<ProcessMeter | undefined> {
  try {
    const response = await fetch(`${url.replace(/\/$/, '')}/_nodes/_local/process?filter_path=nodes.*.process.id`);
    const body = (await response.json()) as { nodes?: Record<string, { process?: { id?: number } }> };
    const pid = Object.values(body.nodes ?? {})[0]?.process?.id;
    if (pid === undefined) return undefined;
    // A remote node's pid may name some other process here: check it is Elasticsearch.
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    if (!cmdline.includes('elasticsearch')) return undefined;
    const meter: ProcessMeter = { pid, cpuSeconds: () => processCpuSeconds(pid) };
    await meter.cpuSeconds();
    return meter;
  } catch {
    return undefined;
  }
}

async function processCpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), from field 3 on: utime is 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
