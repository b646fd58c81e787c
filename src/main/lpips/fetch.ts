// Downloads torchvision's AlexNet and LPIPS v0.1 alex.pth (or takes local
// copies) and converts them into a weights folder loadable by loadLpipsWeights.
// Used by `splatlab lpips fetch <folder> [--alexnet FILE] [--lpips FILE]`.
// Invariant: the network part is one thin function; offline it fails with one clear line.
import { readFileSync } from 'node:fs';
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
