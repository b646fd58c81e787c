// Writers: Splats to an INRIA-layout .ply (streamed in row chunks) or to SPZ v3 (gzip). Inputs:
// a path, the scene, the format and the frame to record. Output: the file. Invariant: the file
// appears whole or not at all (written under a temporary name in the same folder, then renamed).
import { gzipSync } from 'node:zlib';
import { open, rename, rm } from 'node:fs/promises';
import { encodePlyHeader, encodePlyRows, plyRowBytes, type PlyWriteOptions } from '../../shared/formats/ply-write';
import { encodeSpzV3 } from '../../shared/formats/spz';
import type { Splats } from '../../shared/scene/splats';

export type WritableFormat = 'ply' | 'spz';

export interface WriteSplatOptions extends PlyWriteOptions {
  format: WritableFormat;
  onProgress?: (done: number, total: number) => void;
}

const CHUNK_BYTES = 8 * 1024 * 1024;

export async function writeSplatFile(path: string, splats: Splats, opts: WriteSplatOptions): Promise<void> {
  const tmp = `${path}.partial-${process.pid}`;
  const fh = await open(tmp, 'w');
  try {
    if (opts.format === 'ply') {
      await fh.write(encodePlyHeader(splats, opts));
      const rows = Math.max(1, Math.floor(CHUNK_BYTES / plyRowBytes(splats)));
      for (let first = 0; first < splats.count; first += rows) {
        const n = Math.min(rows, splats.count - first);
        await fh.write(encodePlyRows(splats, first, n));
        opts.onProgress?.(first + n, splats.count);
      }
    } else {
      await fh.write(gzipSync(encodeSpzV3(splats, opts.antialiased ?? false)));
      opts.onProgress?.(splats.count, splats.count);
    }
    await fh.close();
    await rename(tmp, path);
  } catch (error) {
    await fh.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw error;
  }
}
