// `splatlab bench [NAME] [--json]`: the benchmarks of docs/PERFORMANCE.md from the command line.
// Built in (src/main/raster): `raster` (the tile rasterizer against the dense peer, with stage
// times and the ratio) and `formats` (reading each format, SPZ decoding against splat-transform's
// where installed, peak memory of a fresh process). Any other NAME runs test/bench/NAME.bench.ts
// of a source checkout in its own process (the `npm run bench` suite). Every result carries the
// machine and the load (`uptime`), so figures from a shared machine say so.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../io/data-dir';
import { benchLoad, benchMachine, machineLine } from '../../raster/bench-machine';
import { runRasterCase, type RasterBenchCase, type RasterBenchSpec } from '../../raster/bench-raster';
import { formatsBench, formatsTable } from '../../raster/bench-formats';
import { parseArgs, stringOption } from '../args';
import { CliError, type CliCommand, type CliIO } from '../command';

const BUILT_IN = ['raster', 'formats'] as const;

/** The source checkout's test/bench folder, when this command runs from one. */
function suiteDir(): string | null {
  const dir = join(repoRoot(), 'test', 'bench');
  return existsSync(dir) ? dir : null;
}

function suiteNames(): string[] {
  const dir = suiteDir();
  return dir ? readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).map((f) => f.slice(0, -'.bench.ts'.length)).sort() : [];
}

function intOption(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new CliError(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}

function rasterTable(cases: RasterBenchCase[]): string[] {
  const f = (x: number | null, d = 1): string => (x === null ? '' : x.toFixed(d));
  const lines = [
    '| Gaussians (SH) | image | lab CPU ms | project | sort | bin | composite | first frame CPU ms | dense peer CPU ms | peer / lab | max abs diff |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const c of cases) {
    const s = c.lab.stagesCpuMs;
    lines.push(`| ${c.gaussians} (${c.degree}) | ${c.width}x${c.height} | ${f(c.lab.cpuMs)} | ${f(s.project)} | ${f(s.sort)} | ${f(s.bin)} | ${f(s.composite)} | ${f(c.lab.firstCpuMs)} | ${c.peer ? f(c.peer.cpuMs) : `skipped: ${c.peerSkipped ?? ''}`} | ${c.ratio === null ? '' : `${c.ratio.toFixed(1)}x`} | ${c.maxAbsDiff === null ? '' : c.maxAbsDiff.toExponential(1)} |`);
  }
  return lines;
}

async function runBuiltIn(name: (typeof BUILT_IN)[number], args: ReturnType<typeof parseArgs>): Promise<{ json: object; lines: string[] }> {
  if (name === 'raster') {
    const gaussians = intOption(stringOption(args, 'gaussians'), 'gaussians', 1, 4_194_304);
    const size = intOption(stringOption(args, 'size'), 'size', 16, 4096);
    const degree = intOption(stringOption(args, 'degree'), 'degree', 0, 3) as RasterBenchSpec['degree'] | undefined;
    const reps = intOption(stringOption(args, 'reps'), 'reps', 1, 100);
    const specs: RasterBenchSpec[] = gaussians !== undefined || size !== undefined
      ? [{ gaussians: gaussians ?? 300, degree: degree ?? 3, size: size ?? 256, reps }]
      : [
        { gaussians: 300, degree: 0, size: 256, reps },
        { gaussians: 10_000, degree: 3, size: 256, reps },
        { gaussians: 1_500_000, degree: 3, size: 512, reps },
      ];
    const cases = specs.map(runRasterCase);
    return { json: { cases }, lines: ['Tile rasterizer vs the dense peer (process CPU time on one thread; ratio = peer / lab):', '', ...rasterTable(cases)] };
  }
  const gaussians = intOption(stringOption(args, 'gaussians'), 'gaussians', 1, 4_194_304);
  const result = await formatsBench({ gaussians: gaussians ?? 200_000 });
  return { json: result, lines: formatsTable(result) };
}

function runSuite(name: string, io: CliIO): number {
  const dir = suiteDir();
  if (!dir) throw new CliError(`bench ${name}: the test/bench suite is not here (a source checkout has it); built in: ${BUILT_IN.join(', ')}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(dir, `${name}.bench.ts`)], { encoding: 'utf8', env: process.env, maxBuffer: 64 * 1024 * 1024 });
  for (const line of (result.stdout ?? '').split('\n')) io.out(line);
  if (result.status !== 0) io.err(`bench ${name} failed with status ${result.status}: ${(result.stderr ?? '').trim().split('\n').pop() ?? ''}`);
  return result.status === 0 ? 0 : 1;
}

export const command: CliCommand = {
  name: 'bench',
  usage: `splatlab bench [NAME] [--json] [--gaussians N] [--size PX] [--degree 0-3] [--reps R]

Runs the benchmarks of docs/PERFORMANCE.md and prints their figures with the machine, the date and
the load (uptime's averages: on a shared machine, compare CPU times and ratios, not wall times).
Built in: raster (the CPU tile rasterizer against the seed-style dense peer, the dense CPU reference
that evaluates every pixel against every Gaussian: CPU times, the ratio, the lab's stage times
project / sort / bin / composite, the largest image difference; the peer runs where it fits) and
formats (reading every format at --gaussians, default 200000, SH 3: read time, peak memory of a
fresh process over the decoded size, SPZ decoding against @playcanvas/splat-transform when it is
installed). Without NAME: every built-in bench. Any other NAME runs test/bench/NAME.bench.ts of a
source checkout (${suiteNames().join(', ') || 'none here'}). --json prints one JSON object instead of tables
(built-in benches only). raster: --gaussians and --size give one case (default three: 300 at
256x256, 10k SH3 at 256x256, 1.5M SH3 at 512x512).`,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['gaussians', 'size', 'degree', 'reps'], flags: ['json'] });
    if (args.positionals.length > 1) throw new CliError('bench takes at most one NAME');
    const name = args.positionals[0];
    const json = args.options.has('json');
    const date = new Date().toISOString();
    const machine = benchMachine();
    const before = benchLoad();
    if (name !== undefined && !(BUILT_IN as readonly string[]).includes(name)) {
      if (json) throw new CliError(`--json is for the built-in benches (${BUILT_IN.join(', ')}); ${name} prints its own tables`);
      if (!suiteNames().includes(name)) throw new CliError(`no bench '${name}' (built in: ${BUILT_IN.join(', ')}; suite: ${suiteNames().join(', ') || 'not here'})`);
      io.out(`# splatlab bench ${name}, ${date}`);
      io.out(machineLine(machine, before));
      return runSuite(name, io);
    }
    const names = name === undefined ? [...BUILT_IN] : [name as (typeof BUILT_IN)[number]];
    const results: Record<string, object> = {};
    const lines: string[] = [];
    for (const n of names) {
      const r = await runBuiltIn(n, args);
      results[n] = r.json;
      lines.push(`## ${n}`, '', ...r.lines, '');
    }
    const after = benchLoad();
    if (json) {
      io.out(JSON.stringify({ date, machine, load: { before, after }, ...results }));
      return 0;
    }
    io.out(`# splatlab bench${name ? ` ${name}` : ''}, ${date}`);
    io.out(machineLine(machine, before));
    io.out(`Load at the end: ${after.uptime}`);
    io.out('');
    for (const l of lines) io.out(l);
    return 0;
  },
};
