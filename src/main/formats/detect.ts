// Which reader a file needs, from its first bytes (magic numbers), with the name used only
// where a format has no magic (.splat). Input: the file's head, its name and size. Output: the
// reader key. Invariant: an unrecognised file is one FormatError line listing what is supported.
import { FormatError } from '../../shared/formats/types';

export type ReaderKey = 'ply' | 'spz' | 'sog-bundle' | 'sog-meta' | 'splat';

export const SUPPORTED = '.ply (INRIA 3DGS or PlayCanvas compressed), .spz (v2-4), .sog or a SOG meta.json (v2), .splat';

export function detectFormat(head: Uint8Array, name: string, size: number): ReaderKey {
  const lower = name.toLowerCase();
  const ascii = new TextDecoder('latin1').decode(head.subarray(0, 16));
  if (ascii.startsWith('ply\n') || ascii.startsWith('ply\r\n')) return 'ply';
  if (head[0] === 0x1f && head[1] === 0x8b) return 'spz'; // gzip: SPZ v2/v3 (checked once inflated)
  if (ascii.startsWith('NGSP')) return 'spz'; // SPZ v4: a plain header
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'sog-bundle';
  if (lower.endsWith('.json') && ascii.trimStart().startsWith('{')) return 'sog-meta';
  if (lower.endsWith('.splat')) return 'splat';
  if (size === 0) throw new FormatError('the file is empty');
  if (lower.endsWith('.ply')) throw new FormatError('not a PLY file (it does not start with "ply")');
  if (lower.endsWith('.spz')) throw new FormatError('Niantic SPZ: neither gzip nor an NGSP header (not an SPZ file)');
  if (lower.endsWith('.sog')) throw new FormatError('PlayCanvas SOG v2: a .sog bundle is a zip, and this is not one');
  throw new FormatError(`unrecognised splat file (supported: ${SUPPORTED})`);
}
