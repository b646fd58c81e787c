// `npm run bench`: runs every test/bench/*.bench.ts in its own process, one after another (so
// they do not compete for the two cores), and prints their markdown tables with the machine and
// date to paste into docs/PERFORMANCE.md. A single bench runs with `npm run bench -- NAME`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
  .sort();

process.stdout.write(`# SplatLab benchmarks, ${new Date().toISOString().slice(0, 10)}\n\n`);
process.stdout.write(`Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}\n\n`);
let failed = 0;
for (const file of benches) {
  process.stdout.write(`## ${file.replace('.bench.ts', '')}\n\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], { stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    failed++;
    process.stdout.write(`(${file} failed with status ${result.status})\n`);
  }
  process.stdout.write('\n');
}
process.exit(failed ? 1 : 0);
