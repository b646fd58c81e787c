// Size limits every decoder checks against a file's declared sizes before it allocates, so a
// small crafted file (a decompression bomb, a header claiming billions of rows) is refused in
// bounded memory. Inputs: declared pixel counts, element counts, byte counts. Output: a one-line
// error naming the limit. Invariant: nothing is allocated from a declared size above its limit.

/**
 * Largest image a PNG may declare (width x height): 2048 x 2048, so the largest accepted image
 * decodes in well under 300 MB (float RGBA plus the inflated rows).
 */
export const MAX_PNG_PIXELS = 2048 * 2048;
/** Largest uncompressed member of a zip in bytes (torch .pth checkpoints hold ~150 MB layers). */
export const MAX_ZIP_MEMBER_BYTES = 512 * 1024 * 1024;
/** Largest total uncompressed size of a zip's members in bytes. */
export const MAX_ZIP_TOTAL_BYTES = 1024 * 1024 * 1024;
/** The same for a scene .npz: 4M rows of float32 [N, 4] is 64 MB. */
export const MAX_NPZ_MEMBER_BYTES = 64 * 1024 * 1024;
export const MAX_NPZ_TOTAL_BYTES = 256 * 1024 * 1024;
/** Most rows (Gaussians) a scene file (.npz, .ply) may declare. */
export const MAX_SCENE_ROWS = 4 * 1024 * 1024;

export class LimitError extends Error {
  override name = 'LimitError';
}

/** Throws LimitError when `declared` exceeds `limit` (or is not a finite non-negative number). */
export function checkLimit(what: string, declared: number, limit: number): void {
  if (!Number.isFinite(declared) || declared < 0 || declared > limit) {
    throw new LimitError(`${what} declares ${declared}, over the limit of ${limit}: refused before decoding`);
  }
}
