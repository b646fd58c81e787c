// A file-system error in plain words (docs/SECURITY.md, "Writes that cannot tear"): what a person
// reads when a log write fails. Input: any thrown value. Output: one line without errno names,
// syscalls or paths ("disk full: no space left on device"). Invariant: never throws; the words
// are the error's own description, not a guess, except for the few codes named below.

const WORDS: Readonly<Record<string, string>> = {
  ENOSPC: 'disk full: no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'the disk is read-only',
  EFBIG: 'the file is too large for the disk',
  EIO: 'input/output error on the disk',
};

/** The plain words of a Node file-system error (its code mapped, else its own description). */
export function plainFsError(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : null;
  if (code && WORDS[code]) return WORDS[code];
  const message = error instanceof Error ? error.message : String(error);
  // Node words them "ECODE: description, syscall 'path'": keep the description only.
  const m = /^[A-Z][A-Z0-9]{1,15}: ([^,]*)/.exec(message);
  return (m ? m[1] : message).split('\n')[0].trim() || 'the write failed';
}
