// 32-bit FNV-1a (Fowler-Noll-Vo), the lab's one small non-cryptographic hash: stable seeds from
// names (relation samples, derived run seeds, scrambles, bootstrap groups), order keys and the
// hashes stored with a search judgement (its prompt, the images it saw).
// Input: a string (its UTF-16 code units, as String.charCodeAt gives them) or bytes, and an
// optional offset basis (callers that mix a seed in). Output: an unsigned 32-bit integer.
// Invariant: only 32-bit integer ops, so a value is the same on every platform and stays the
// same across releases (seeded runs and stored hashes depend on it).

/** FNV-1a's 32-bit offset basis. */
export const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export function fnv1a(data: string | Uint8Array, basis: number = FNV_OFFSET): number {
  let h = basis >>> 0;
  if (typeof data === 'string') {
    for (let i = 0; i < data.length; i++) h = Math.imul(h ^ data.charCodeAt(i), FNV_PRIME) >>> 0;
  } else {
    for (let i = 0; i < data.length; i++) h = Math.imul(h ^ data[i], FNV_PRIME) >>> 0;
  }
  return h;
}

/** fnv1a as eight hex digits (the form stored with a judgement). */
export function fnv1aHex(data: string | Uint8Array): string {
  return fnv1a(data).toString(16).padStart(8, '0');
}
