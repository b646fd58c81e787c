// The independent oracle of the format tests: PlayCanvas splat-transform (a library SplatLab
// did not write) writes every format from a random table of INRIA-layout columns, and reads the
// same files back, so the lab's readers can be compared value by value with it.
// Inputs: a seed, a count and an SH degree. Outputs: files on disk, the oracle's decoded columns.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  Column, createChunkDataPool, DataTable, dataTableToChunkSource, materializeToDataTable, MemoryFileSystem, MemoryReadFileSystem, readFile, Transform, writeSource,
  type InputFormat, type OutputFormat,
} from '@playcanvas/splat-transform';

export const SH_C0 = 0.28209479177387814;
export const REST_COUNT = [0, 9, 24, 45];

/** Deterministic uniform numbers in [0, 1). */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

export type Columns = Record<string, Float32Array>;

/** Random INRIA-layout columns: positions in a room-sized box, log scales, logits, SH. */
export function randomColumns(n: number, degree: number, seed: number): Columns {
  const r = rng(seed);
  const col = (f: () => number): Float32Array => Float32Array.from({ length: n }, f);
  const out: Columns = {
    x: col(() => (r() - 0.5) * 6), y: col(() => (r() - 0.5) * 4), z: col(() => (r() - 0.5) * 8),
    scale_0: col(() => -5 + r() * 3), scale_1: col(() => -5 + r() * 3), scale_2: col(() => -5 + r() * 3),
    rot_0: col(() => r() - 0.5), rot_1: col(() => r() - 0.5), rot_2: col(() => r() - 0.5), rot_3: col(() => r() - 0.5),
    f_dc_0: col(() => (r() - 0.5) * 3), f_dc_1: col(() => (r() - 0.5) * 3), f_dc_2: col(() => (r() - 0.5) * 3),
    opacity: col(() => (r() - 0.5) * 8),
  };
  for (let j = 0; j < REST_COUNT[degree]; j++) out[`f_rest_${j}`] = col(() => (r() - 0.5) * 0.8);
  return out;
}

const FILE_NAMES: Partial<Record<OutputFormat, string>> = {
  ply: 'scene.ply', 'compressed-ply': 'scene.compressed.ply', spz: 'scene.spz', sog: 'sog/meta.json', 'sog-bundle': 'scene.sog', splat: 'scene.splat',
};

/** Writes `cols` in `format` under `dir` with splat-transform; returns the path to open. */
export async function oracleWrite(format: OutputFormat, cols: Columns, dir: string, options: Record<string, unknown> = {}, model: 'default' | 'antialiased' | '2dgs' = 'default'): Promise<string> {
  const table = new DataTable(Object.entries(cols).map(([name, data]) => new Column(name, data)), Transform.PLY.clone());
  const fs = new MemoryFileSystem();
  const target = join(dir, FILE_NAMES[format] ?? 'scene.bin');
  mkdirSync(dirname(target), { recursive: true });
  await writeSource({ filename: target, outputFormat: format, source: dataTableToChunkSource(table, undefined, undefined, model), pool: createChunkDataPool(), options: { iterations: 3, ...options } }, fs);
  for (const [name, data] of fs.results) {
    const path = name.startsWith('/') ? name : join(dirname(target), name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data);
  }
  return target;
}

/** The oracle's own reading of files (raw columns, as stored: log scales, logits, f_dc). */
export async function oracleRead(format: InputFormat, files: Record<string, Uint8Array>, main: string): Promise<Columns> {
  const fs = new MemoryReadFileSystem();
  for (const [name, data] of Object.entries(files)) fs.set(name, data);
  const pool = createChunkDataPool();
  const [source] = await readFile({ filename: main, inputFormat: format, fileSystem: fs });
  const table = await materializeToDataTable(source, pool);
  await source.close();
  return Object.fromEntries(table.columns.map((c) => [c.name, Float32Array.from(c.data as ArrayLike<number>)]));
}
