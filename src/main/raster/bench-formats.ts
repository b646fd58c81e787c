// `splatlab bench formats`: a synthetic room of N SH-3 Gaussians written as an INRIA .ply and an
// SPZ v3 by the lab's writers, each read in a fresh process (bench-read-child.ts) by the lab and,
// where @playcanvas/splat-transform is installed (a dev dependency), by that library: CPU time of
// the reading, the ratio, and memory: peak RSS, and the reading's growth (peak RSS minus the RSS
// before it) over the decoded scene's size (236 bytes per SH-3 Gaussian in float32); and the .ply
// read and rendered once on the tile rasterizer in one process (the memory of a capture on screen).
// The children run the child's compiled bundle (compiledEntry, as the lab's pool threads and CLI
// run compiled JavaScript since issue 29 item 9), so their memory is the lab's own and not tsx's
// transpiler; through tsx only when esbuild cannot build it (then the figures say so).
// Inputs: N. Output: FormatsBench rows. Invariant: every reading is checked to return N Gaussians.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../io/data-dir';
import { decodedBytesPerGaussian } from '../../shared/formats/types';
import { writeSplatFile } from '../formats/write';
import { compiledEntry } from '../workers/compiled';
import { roomScene } from './room-scene';

export interface ReadFigure {
  cpuMs: number;
  wallMs: number;
  baseRssBytes: number;
  peakRssBytes: number;
  count: number;
}

export interface FormatRow {
  file: string;
  fileBytes: number;
  decodedBytes: number;
  lab: ReadFigure;
  /** The reading's own memory: (peak RSS - RSS before) / decoded size. */
  labGrowthOverDecoded: number;
  peer: ReadFigure | null;
  peerSkipped?: string;
  /** Peer CPU time over the lab's (above 1: the lab decodes faster). */
  ratio: number | null;
}

export interface FormatsBench {
  gaussians: number;
  degree: 3;
  rows: FormatRow[];
  /** The INRIA .ply read and one 512x512 frame rendered on the tile rasterizer (2 threads), one process. */
  render: { figure: ReadFigure; growthOverDecoded: number; peakOverDecoded: number } | null;
  /** How the children ran: 'compiled' (the bundle, plain node) or 'tsx' (esbuild was not usable). */
  child: 'compiled' | 'tsx';
}

// From the repository root: this module may run from the CLI's bundle (src/main/cli/compiled-cli.mjs).
const CHILD = join(repoRoot(), 'src', 'main', 'raster', 'bench-read-child.ts');

function read(entry: string[], path: string, peer: string | null, render = 0): ReadFigure | string {
  const args = [...entry, path, ...(peer ? ['--peer', peer] : []), ...(render > 0 ? ['--render', String(render)] : [])];
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20, env: { ...process.env, SPLATLAB_ROOT: repoRoot() } });
  if (child.status !== 0) return (child.stderr || `status ${child.status}`).trim().split('\n').filter((l) => l.trim()).pop() ?? 'failed';
  return JSON.parse(child.stdout.trim().split('\n').pop() as string) as ReadFigure;
}

export async function formatsBench(o: { gaussians: number }): Promise<FormatsBench> {
  const n = o.gaussians;
  const dir = mkdtempSync(join(tmpdir(), 'splatlab-bench-formats-'));
  const bundle = compiledEntry(CHILD);
  const entry = bundle ? [bundle] : ['--import', 'tsx', CHILD];
  try {
    const scene = roomScene(n, 3);
    const decodedBytes = n * decodedBytesPerGaussian(3);
    const rows: FormatRow[] = [];
    for (const f of [{ label: 'INRIA .ply (SH 3, written by the lab)', format: 'ply' as const, peer: 'ply' }, { label: 'SPZ v3 (SH 3, gzip, written by the lab)', format: 'spz' as const, peer: 'spz' }]) {
      const path = join(dir, `scene.${f.format}`);
      await writeSplatFile(path, scene, { format: f.format });
      const lab = read(entry, path, null);
      if (typeof lab === 'string') throw new Error(`bench formats: the lab's reading of ${f.label} failed: ${lab}`);
      if (lab.count !== n) throw new Error(`bench formats: ${f.label}: read ${lab.count} Gaussians, wrote ${n}`);
      const peer = read(entry, path, f.peer);
      const peerOk = typeof peer !== 'string' && peer.count === n ? peer : null;
      rows.push({
        file: f.label,
        fileBytes: statSync(path).size,
        decodedBytes,
        lab,
        labGrowthOverDecoded: (lab.peakRssBytes - lab.baseRssBytes) / decodedBytes,
        peer: peerOk,
        ...(peerOk ? {} : { peerSkipped: typeof peer === 'string' ? `splat-transform: ${peer}` : `splat-transform read ${peer.count} Gaussians` }),
        ratio: peerOk ? peerOk.cpuMs / Math.max(1e-3, lab.cpuMs) : null,
      });
    }
    const rendered = read(entry, join(dir, 'scene.ply'), null, 512);
    const render = typeof rendered === 'string' ? null : { figure: rendered, growthOverDecoded: (rendered.peakRssBytes - rendered.baseRssBytes) / decodedBytes, peakOverDecoded: rendered.peakRssBytes / decodedBytes };
    return { gaussians: n, degree: 3, rows, render, child: bundle ? 'compiled' : 'tsx' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatsTable(b: FormatsBench): string[] {
  const mb = (x: number): string => (x / 1e6).toFixed(0);
  const lines = [
    `${b.gaussians} Gaussians, SH degree ${b.degree} (decoded: ${mb(b.rows[0]?.decodedBytes ?? 0)} MB in float32); each reading in a fresh Node process (${b.child === 'compiled' ? 'the compiled child' : 'the child through tsx: esbuild was not usable'}).`,
    '',
    '| file | size MB | lab CPU ms | lab peak RSS MB | lab growth / decoded | splat-transform CPU ms | its peak RSS MB | splat-transform / lab (CPU) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of b.rows) {
    lines.push(`| ${r.file} | ${mb(r.fileBytes)} | ${r.lab.cpuMs.toFixed(0)} | ${mb(r.lab.peakRssBytes)} | ${r.labGrowthOverDecoded.toFixed(2)} | ${r.peer ? r.peer.cpuMs.toFixed(0) : (r.peerSkipped ?? '')} | ${r.peer ? mb(r.peer.peakRssBytes) : ''} | ${r.ratio === null ? '' : `${r.ratio.toFixed(2)}x`} |`);
  }
  if (b.render) {
    const r = b.render;
    lines.push('', `Read the .ply and render one 512x512 frame on the tile rasterizer (2 threads), one process: peak RSS ${mb(r.figure.peakRssBytes)} MB (${r.peakOverDecoded.toFixed(2)}x the decoded scene), growth over the RSS before reading ${mb(r.figure.peakRssBytes - r.figure.baseRssBytes)} MB (${r.growthOverDecoded.toFixed(2)}x), ${r.figure.cpuMs.toFixed(0)} ms CPU.`);
  }
  return lines;
}
