// Size limits every decoder checks against a file's declared sizes before it allocates, so a
// small crafted file (a decompression bomb, a header claiming billions of rows) is refused in
// bounded memory. Inputs: declared pixel counts, element counts, byte counts. Output: a one-line
// error naming the limit. Invariant: nothing is allocated from a declared size above its limit.

/** Largest image a PNG may declare (width x height): 4096 x 4096. */
export const MAX_PNG_PIXELS = 4096 * 4096;
/** Largest uncompressed member of a zip (.npz, .pth) in bytes. */
export const MAX_ZIP_MEMBER_BYTES = 512 * 1024 * 1024;
/** Largest total uncompressed size of a zip's members in bytes. */
export const MAX_ZIP_TOTAL_BYTES = 1024 * 1024 * 1024;
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
