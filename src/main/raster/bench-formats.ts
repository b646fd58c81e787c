// `splatlab bench formats`: a synthetic room of N SH-3 Gaussians written as an INRIA .ply and an
// SPZ v3 by the lab's writers, and (where @playcanvas/splat-transform, a dev dependency, is
// installed) a SOG v2 of the same room without SH bands written by that library's own CLI (its
// SOG writer clusters SH bands with a k-means too slow for a bench on a CPU); each read in a fresh
// process (bench-read-child.ts) by the lab and by splat-transform, in turns (TURNS of each, the
// median by CPU kept): CPU time of the reading, the ratio, and memory: peak RSS, and the reading's growth (peak RSS minus the RSS
// before it) over the decoded scene's size (236 bytes per SH-3 Gaussian in float32); and the .ply
// read and rendered once on the tile rasterizer in one process (the memory of a capture on screen).
// The children run the child's compiled bundle (compiledEntry, as the lab's pool threads and CLI
// run compiled JavaScript since issue 29 item 9), so their memory is the lab's own and not tsx's
// transpiler; through tsx only when esbuild cannot build it (then the figures say so).
// Inputs: N. Output: FormatsBench rows. Invariant: every reading is checked to return N Gaussians.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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
  /** Files not benched, with the reason (a SOG needs splat-transform's writer). */
  skipped?: string[];
  /** The INRIA .ply read and one 512x512 frame rendered on the tile rasterizer (2 threads), one process. */
  render: { figure: ReadFigure; growthOverDecoded: number; peakOverDecoded: number } | null;
  /** How the children ran: 'compiled' (the bundle, plain node) or 'tsx' (esbuild was not usable). */
  child: 'compiled' | 'tsx';
}

// From the repository root: this module may run from the CLI's bundle (src/main/cli/compiled-cli.mjs).
const CHILD = join(repoRoot(), 'src', 'main', 'raster', 'bench-read-child.ts');

/** Readings of each file by each reader, alternating; the median by CPU time is reported. */
const TURNS = 3;

const PEER = '@playcanvas/splat-transform';

/** Writes `ply` as a SOG v2 with splat-transform's CLI on the CPU; null with the reason when it cannot. */
function peerSog(ply: string, out: string): string | null {
  let cli: string;
  try {
    // Its exports name no package.json: the package's folder is its entry's folder's parent (dist/).
    cli = join(dirname(dirname(createRequire(import.meta.url).resolve(PEER))), 'bin', 'cli.mjs');
  } catch {
    return `${PEER} is not installed`;
  }
  const r = spawnSync(process.execPath, [cli, '-q', '-w', '-g', 'cpu', ply, out], { encoding: 'utf8' });
  return r.status === 0 ? null : `its SOG writer failed: ${(r.stderr || `status ${r.status}`).trim().split('\n').pop() ?? ''}`;
}

const median = (xs: ReadFigure[]): ReadFigure => [...xs].sort((a, b) => a.cpuMs - b.cpuMs)[xs.length >> 1];

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
    const files: { label: string; path: string; peer: string; decodedBytes: number; skipped?: string }[] = [];
    for (const f of [{ label: 'INRIA .ply (SH 3, written by the lab)', format: 'ply' as const }, { label: 'SPZ v3 (SH 3, gzip, written by the lab)', format: 'spz' as const }]) {
      const path = join(dir, `scene.${f.format}`);
      await writeSplatFile(path, scene, { format: f.format });
      files.push({ label: f.label, path, peer: f.format, decodedBytes });
    }
    const flat = join(dir, 'flat.ply');
    await writeSplatFile(flat, roomScene(n, 0), { format: 'ply' });
    const sog = join(dir, 'scene.sog');
    const sogSkipped = peerSog(flat, sog);
    if (sogSkipped === null) files.push({ label: 'SOG v2 (SH 0, written by splat-transform)', path: sog, peer: 'sog', decodedBytes: n * decodedBytesPerGaussian(0) });
    const rows: FormatRow[] = [];
    for (const f of files) {
      const labs: ReadFigure[] = [];
      const peers: ReadFigure[] = [];
      let peerFailed: string | null = null;
      for (let t = 0; t < TURNS; t++) {
        const lab = read(entry, f.path, null);
        if (typeof lab === 'string') throw new Error(`bench formats: the lab's reading of ${f.label} failed: ${lab}`);
        if (lab.count !== n) throw new Error(`bench formats: ${f.label}: read ${lab.count} Gaussians, wrote ${n}`);
        labs.push(lab);
        if (peerFailed !== null) continue;
        const peer = read(entry, f.path, f.peer);
        if (typeof peer === 'string') peerFailed = `splat-transform: ${peer}`;
        else if (peer.count !== n) peerFailed = `splat-transform read ${peer.count} Gaussians`;
        else peers.push(peer);
      }
      const lab = median(labs);
      const peer = peerFailed === null ? median(peers) : null;
      rows.push({
        file: f.label,
        fileBytes: statSync(f.path).size,
        decodedBytes: f.decodedBytes,
        lab,
        labGrowthOverDecoded: (lab.peakRssBytes - lab.baseRssBytes) / f.decodedBytes,
        peer,
        ...(peerFailed === null ? {} : { peerSkipped: peerFailed }),
        ratio: peer ? peer.cpuMs / Math.max(1e-3, lab.cpuMs) : null,
      });
    }
    const rendered = read(entry, join(dir, 'scene.ply'), null, 512);
    const render = typeof rendered === 'string' ? null : { figure: rendered, growthOverDecoded: (rendered.peakRssBytes - rendered.baseRssBytes) / decodedBytes, peakOverDecoded: rendered.peakRssBytes / decodedBytes };
    return { gaussians: n, degree: 3, rows, ...(sogSkipped === null ? {} : { skipped: [`SOG v2: ${sogSkipped}`] }), render, child: bundle ? 'compiled' : 'tsx' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatsTable(b: FormatsBench): string[] {
  const mb = (x: number): string => (x / 1e6).toFixed(0);
  const lines = [
    `${b.gaussians} Gaussians, SH degree ${b.degree} (decoded: ${mb(b.rows[0]?.decodedBytes ?? 0)} MB in float32; the SOG without SH bands); each reading in a fresh Node process, the median of ${TURNS} in turns with splat-transform's (${b.child === 'compiled' ? 'the compiled child' : 'the child through tsx: esbuild was not usable'}).`,
    '',
    '| file | size MB | lab CPU ms | lab peak RSS MB | lab growth / decoded | splat-transform CPU ms | its peak RSS MB | splat-transform / lab (CPU) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of b.rows) {
    lines.push(`| ${r.file} | ${mb(r.fileBytes)} | ${r.lab.cpuMs.toFixed(0)} | ${mb(r.lab.peakRssBytes)} | ${r.labGrowthOverDecoded.toFixed(2)} | ${r.peer ? r.peer.cpuMs.toFixed(0) : (r.peerSkipped ?? '')} | ${r.peer ? mb(r.peer.peakRssBytes) : ''} | ${r.ratio === null ? '' : `${r.ratio.toFixed(2)}x`} |`);
  }
  for (const why of b.skipped ?? []) lines.push(`| ${why} | | | | | | | |`);
  if (b.render) {
    const r = b.render;
    lines.push('', `Read the .ply and render one 512x512 frame on the tile rasterizer (2 threads), one process: peak RSS ${mb(r.figure.peakRssBytes)} MB (${r.peakOverDecoded.toFixed(2)}x the decoded scene), growth over the RSS before reading ${mb(r.figure.peakRssBytes - r.figure.baseRssBytes)} MB (${r.growthOverDecoded.toFixed(2)}x), ${r.figure.cpuMs.toFixed(0)} ms CPU.`);
  }
  return lines;
}
