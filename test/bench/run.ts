// `npm run bench`: runs every test/bench/*.bench.ts in its own process, one after another (so
// they do not compete for the two cores), and prints their markdown tables with the machine, the
// date and the load average to paste into docs/PERFORMANCE.md. `npm run bench -- NAME [--flag
// value ...]` runs the bench named NAME (its file, else every file starting with NAME: `grade`
// is grader.bench.ts) and passes the flags on to it (`npm run bench -- raster --peer torch`).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const firstFlag = args.findIndex((a) => a.startsWith('--'));
const only = firstFlag < 0 ? args : args.slice(0, firstFlag);
const flags = firstFlag < 0 ? [] : args.slice(firstFlag);
const files = readdirSync(here).filter((f) => f.endsWith('.bench.ts'));
const pick = (name: string): string[] => (files.includes(`${name}.bench.ts`) ? [`${name}.bench.ts`] : files.filter((f) => f.startsWith(name)));
const benches = (only.length === 0 ? files : [...new Set(only.flatMap(pick))]).sort();
if (benches.length === 0) {
  process.stderr.write(`No bench matches ${only.join(', ')}; benches: ${files.map((f) => f.replace('.bench.ts', '')).join(', ')}\n`);
  process.exit(2);
}

process.stdout.write(`# SplatLab benchmarks, ${new Date().toISOString().slice(0, 10)}\n\n`);
process.stdout.write(`Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}\n\n`);
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(', ');
let failed = 0;
for (const file of benches) {
  process.stdout.write(`## ${file.replace('.bench.ts', '')}\n\n${new Date().toISOString()}, load average (1, 5, 15 min) at start: ${load()}\n\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, file), ...flags], { stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    failed++;
    process.stdout.write(`(${file} failed with status ${result.status})\n`);
  }
  process.stdout.write(`\nLoad average at the end: ${load()}\n\n`);
}
process.exit(failed ? 1 : 0);
