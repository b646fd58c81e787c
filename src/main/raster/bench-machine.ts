// What every `splatlab bench` figure is recorded with (docs/PERFORMANCE.md: "keep the machine and
// the date with every figure"): the machine in words and numbers, and the load at the time, as
// `uptime` prints it (1, 5 and 15 minute averages), so a figure from a shared machine says so.
// Inputs: none (node:os). Output: BenchMachine, BenchLoad. Invariant: pure reads, no side effects.
import { availableParallelism, cpus, loadavg, platform, release, totalmem } from 'node:os';

export interface BenchMachine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
}

export interface BenchLoad {
  /** Load averages over 1, 5 and 15 minutes. */
  loadavg: [number, number, number];
  /** The same in the words of `uptime`. */
  uptime: string;
  /** The 1-minute average over the cores: above 1, benches share the cores with other work. */
  perCore: number;
}

export function benchMachine(): BenchMachine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: availableParallelism(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${platform()} ${release()}`,
  };
}

export function benchLoad(): BenchLoad {
  const [a, b, c] = loadavg();
  const cores = availableParallelism();
  return { loadavg: [a, b, c], uptime: `load average: ${a.toFixed(2)}, ${b.toFixed(2)}, ${c.toFixed(2)}`, perCore: a / cores };
}

export function machineLine(m: BenchMachine, load: BenchLoad): string {
  const shared = load.perCore > 1 ? ' (loaded: more runnable work than cores, so wall times are inflated; compare CPU times and ratios)' : '';
  return `Machine: ${m.cores} x ${m.cpu}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}; ${load.uptime}${shared}`;
}
