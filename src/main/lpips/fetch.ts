// The weights command: downloads torchvision's AlexNet and LPIPS v0.1 alex.pth (or takes local
// copies) and converts them into a weights folder loadable by loadLpipsWeights.
// Usage: node --import tsx src/main/lpips/fetch.ts <folder> [--alexnet FILE] [--lpips FILE]
// Invariant: the network part is one thin function; offline it fails with one clear line.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ALEXNET_URL, LPIPS_ALEX_URL, convertCheckpoints } from './convert';
import { loadLpipsWeights } from './weights';

export class DownloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DownloadError';
  }
}

/** Downloads one file into memory; `fetchImpl` is injectable for tests. */
export async function download(url: string, fetchImpl: typeof fetch = fetch): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await fetchImpl(url, { redirect: 'follow' });
  } catch (err) {
    const cause = (err as Error & { cause?: Error }).cause?.message ?? (err as Error).message;
    throw new DownloadError(`could not download ${url} (${cause}); check the internet connection, or download it by hand and pass it with --alexnet/--lpips`);
  }
  if (!res.ok) throw new DownloadError(`could not download ${url}: HTTP ${res.status} ${res.statusText}`);
  return new Uint8Array(await res.arrayBuffer());
}

export interface FetchOptions {
  alexnetFile?: string;
  lpipsFile?: string;
  fetchImpl?: typeof fetch;
}

/** Gets both checkpoints (local files when given), converts them into `outDir` and verifies it. */
export async function fetchLpipsWeights(outDir: string, options: FetchOptions = {}): Promise<void> {
  const alexnet = options.alexnetFile ? readFileSync(options.alexnetFile) : await download(ALEXNET_URL, options.fetchImpl);
  const lpips = options.lpipsFile ? readFileSync(options.lpipsFile) : await download(LPIPS_ALEX_URL, options.fetchImpl);
  convertCheckpoints(alexnet, lpips, outDir);
  loadLpipsWeights({ dir: outDir });
}

function parseArgs(argv: string[]): { outDir: string; options: FetchOptions } {
  const options: FetchOptions = {};
  let outDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--alexnet') options.alexnetFile = argv[++i];
    else if (argv[i] === '--lpips') options.lpipsFile = argv[++i];
    else if (!outDir && !argv[i].startsWith('--')) outDir = argv[i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!outDir) throw new Error('usage: fetch.ts <folder> [--alexnet FILE] [--lpips FILE]');
  return { outDir: resolve(outDir), options };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    const { outDir, options } = parseArgs(process.argv.slice(2));
    await fetchLpipsWeights(outDir, options);
    console.log(`LPIPS weights written to ${outDir}; use them with SPLATLAB_LPIPS_DIR=${outDir}`);
  } catch (err) {
    console.error(`error: ${(err as Error).message}`);
    process.exitCode = 1;
  }
}
