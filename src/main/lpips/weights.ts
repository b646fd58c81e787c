// Loads LPIPS (AlexNet, v0.1) weights from a folder of raw float32 LE files plus manifest.json
// (docs/DESIGN.md section 4). Folder: the `dir` option, else $SPLATLAB_LPIPS_DIR, else the copy
// shipped in the project (assets/lpips-alex, found from this module's own location, so any clone
// grades with LPIPS; assets/lpips-alex/README.md). Output: typed LpipsWeights.
// Invariant: every file's sha256, byte size and shape is checked before use (and the shipped
// manifest's own sha256 against BUNDLED_MANIFEST_SHA256); each failure is one LpipsWeightsError
// line naming the file and saying how to get the weights. In two steps (lpipsWeightFiles: the
// manifest, sizes and shapes; readLpipsWeights: the bytes and their sha256), so a grader whose
// per-machine cache holds these weights packed, under their manifest's hashes, reads no file.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { endianness } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { repoRoot } from '../io/data-dir';
import { checkLpipsTensor, LPIPS_TENSOR_SHAPES, lpipsWeightsFromTensors, type LpipsWeights, type NamedTensor } from '../../shared/metrics/lpips-weights';

export class LpipsWeightsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LpipsWeightsError';
  }
}

export const FETCH_HINT = 'run `npx splatlab lpips fetch <folder>` (needs internet) to download and convert them';

export const ManifestEntry = z.object({
  file: z.string().regex(/^[\w.-]+$/),
  shape: z.array(z.number().int().nonnegative()),
  dtype: z.literal('float32-le'),
  layout: z.string().optional(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ManifestEntry = z.infer<typeof ManifestEntry>;

/** sha256 of assets/lpips-alex/manifest.json: the shipped copy is the one this code was tested with. */
export const BUNDLED_MANIFEST_SHA256 = '5db250d6be79bedf90de380c0765543fb8597f998ddc8b1d9c330681289d99aa';

/** The weights folder shipped inside the project (beside package.json). */
export function bundledLpipsDir(root: string = repoRoot()): string {
  return resolve(root, 'assets', 'lpips-alex');
}

/** Folder to load from: option, else $SPLATLAB_LPIPS_DIR, else the shipped copy when present; null if none. */
export function resolveLpipsDir(dir?: string, env: NodeJS.ProcessEnv = process.env, root: string = repoRoot()): string | null {
  if (dir) return resolve(dir);
  if (env.SPLATLAB_LPIPS_DIR) return resolve(env.SPLATLAB_LPIPS_DIR);
  const bundled = bundledLpipsDir(root);
  return existsSync(join(bundled, 'manifest.json')) ? bundled : null;
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function readManifest(dir: string, root: string): Record<string, ManifestEntry> {
  const path = join(dir, 'manifest.json');
  if (!existsSync(path)) throw new LpipsWeightsError(`LPIPS weights: ${path} is missing; ${FETCH_HINT}`);
  const raw = readFileSync(path);
  if (resolve(dir) === bundledLpipsDir(root) && sha256(raw) !== BUNDLED_MANIFEST_SHA256) {
    throw new LpipsWeightsError(`LPIPS weights: the shipped ${path} fails its pinned sha256 check (edited or corrupt); restore it with git checkout`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new LpipsWeightsError(`LPIPS weights: ${path} is not valid JSON (${(err as Error).message})`);
  }
  if (typeof json !== 'object' || json === null) throw new LpipsWeightsError(`LPIPS weights: ${path} is not a JSON object`);
  const entries: Record<string, ManifestEntry> = {};
  for (const name of Object.keys(LPIPS_TENSOR_SHAPES)) {
    const raw = (json as Record<string, unknown>)[name];
    if (raw === undefined) throw new LpipsWeightsError(`LPIPS weights: ${path} has no entry for ${name}`);
    const parsed = ManifestEntry.safeParse(raw);
    if (!parsed.success) throw new LpipsWeightsError(`LPIPS weights: ${path} entry ${name} is malformed (${parsed.error.issues[0].message})`);
    entries[name] = parsed.data;
  }
  return entries;
}

/**
 * A file of `count` little-endian float32 values, as floats in an aligned buffer of their own and
 * as the file's bytes. On a little-endian host (every host the lab runs on) the file is read
 * straight into the floats' buffer: no second copy (a per-value loop and a copy cost a cold
 * `splatlab grade` about 60 ms, fresh memory being slow to touch); elsewhere read value by value.
 */
function readLittleEndianFloats(path: string, count: number): { floats: Float32Array; bytes: Uint8Array } {
  if (endianness() === 'LE') {
    const floats = new Float32Array(count);
    const bytes = new Uint8Array(floats.buffer);
    const fd = openSync(path, 'r');
    try {
      for (let at = 0; at < bytes.length; ) {
        const n = readSync(fd, bytes, at, bytes.length - at, at);
        if (n === 0) throw new LpipsWeightsError(`LPIPS weights: ${path} ended early (changed while read)`);
        at += n;
      }
    } finally {
      closeSync(fd);
    }
    return { floats, bytes };
  }
  const bytes = readFileSync(path);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const floats = new Float32Array(count);
  for (let i = 0; i < count; i++) floats[i] = view.getFloat32(i * 4, true);
  return { floats, bytes };
}

/**
 * A weights folder whose manifest checked out and whose files exist with the manifest's sizes
 * and the network's shapes; their bytes are read and hashed by readLpipsWeights. The manifest's
 * sha256 of every file names the weights (the packed-weight cache's key, packed-cache.ts), so
 * a process that finds them packed in its cache need not read the files.
 */
export interface LpipsWeightFiles {
  readonly dir: string;
  readonly manifest: Readonly<Record<string, ManifestEntry>>;
}

/** Checks a weights folder short of reading its files; throws LpipsWeightsError (one line) when it is unusable. */
export function lpipsWeightFiles(options: { dir?: string; env?: NodeJS.ProcessEnv; root?: string } = {}): LpipsWeightFiles {
  const root = options.root ?? repoRoot();
  const dir = resolveLpipsDir(options.dir, options.env, root);
  if (!dir) throw new LpipsWeightsError(`LPIPS weights not found (set SPLATLAB_LPIPS_DIR or pass a folder); ${FETCH_HINT}`);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new LpipsWeightsError(`LPIPS weights folder ${dir} does not exist; ${FETCH_HINT}`);
  const manifest = readManifest(dir, root);
  for (const [name, entry] of Object.entries(manifest)) {
    const path = join(dir, entry.file);
    if (!existsSync(path)) throw new LpipsWeightsError(`LPIPS weights: ${path} (${name}) is missing; ${FETCH_HINT}`);
    const count = entry.shape.reduce((p, v) => p * v, 1);
    const size = statSync(path).size;
    if (size !== count * 4) {
      throw new LpipsWeightsError(`LPIPS weights: ${path} has ${size} bytes, expected ${count * 4} for shape [${entry.shape.join(', ')}]`);
    }
    try {
      checkLpipsTensor(name, entry.shape, count);
    } catch (err) {
      throw new LpipsWeightsError(`${(err as Error).message} (in ${dir})`);
    }
  }
  return { dir, manifest };
}

/** Reads the checked folder's files and verifies each against its sha256; throws LpipsWeightsError (one line). */
export function readLpipsWeights(files: LpipsWeightFiles): LpipsWeights {
  const tensors: Record<string, NamedTensor> = {};
  for (const [name, entry] of Object.entries(files.manifest)) {
    const path = join(files.dir, entry.file);
    const count = entry.shape.reduce((p, v) => p * v, 1);
    let data: { floats: Float32Array; bytes: Uint8Array };
    try {
      data = readLittleEndianFloats(path, count);
    } catch (err) {
      if (err instanceof LpipsWeightsError) throw err;
      throw new LpipsWeightsError(`LPIPS weights: ${path} (${name}) could not be read (${(err as Error).message}); ${FETCH_HINT}`);
    }
    if (sha256(data.bytes) !== entry.sha256) throw new LpipsWeightsError(`LPIPS weights: ${path} fails its sha256 check (corrupt or wrong file); ${FETCH_HINT}`);
    tensors[name] = { shape: entry.shape, data: data.floats };
  }
  try {
    return lpipsWeightsFromTensors(tensors);
  } catch (err) {
    throw new LpipsWeightsError(`${(err as Error).message} (in ${files.dir})`);
  }
}

/** Loads and verifies the weights; throws LpipsWeightsError (one line) when they are unusable. */
export function loadLpipsWeights(options: { dir?: string; env?: NodeJS.ProcessEnv; root?: string } = {}): LpipsWeights {
  return readLpipsWeights(lpipsWeightFiles(options));
}
