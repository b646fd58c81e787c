// The one place a client-supplied path, id or name becomes a file path: it is resolved inside its
// root (the lab home, the tasks folder, an upload's folder) and refused otherwise.
// Inputs: a trusted root, the untrusted relative path, what it names (for the message).
// Output: the absolute path inside the root. Invariants: absolute paths, `..` segments, NUL bytes
// and symlinks leading out of the root are refused; the refusal names only what the client sent
// (trimmed), never the root, whether the target exists or what it is.
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

export class ConfinementError extends Error {
  override name = 'ConfinementError';
}

/** A file-name-like id: letters, digits, `_ . -`, not starting with a dot, at most 128 chars. */
export const SAFE_ID = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;

function shown(given: string): string {
  const clean = given.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 60 ? `${clean.slice(0, 57)}...` : clean;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('..');
}

/** The real path of the deepest existing ancestor of `path` (itself when it exists). */
function realAncestor(path: string): string {
  let p = path;
  while (!existsSync(p)) {
    const up = dirname(p);
    if (up === p) return p;
    p = up;
  }
  return realpathSync(p);
}

/**
 * Resolves `given` (relative to `root`, or absolute and inside it) or throws a ConfinementError
 * that reveals nothing about the disk: "<what> '<given>' is outside <rootLabel>".
 */
export function confinedPath(root: string, given: string, what: string, rootLabel = 'its folder'): string {
  const refuse = (): never => {
    throw new ConfinementError(`${what} '${shown(String(given))}' is outside ${rootLabel}`);
  };
  if (typeof given !== 'string' || given.length === 0 || given.length > 1024 || given.includes('\0')) refuse();
  if (given.split(/[\\/]/).includes('..')) refuse();
  const base = resolve(root);
  const path = resolve(base, given);
  if (!inside(base, path)) refuse();
  // Symlinks: the real location of what exists along the path must stay inside the real root.
  const realRoot = existsSync(base) ? realpathSync(base) : base;
  const real = realAncestor(path);
  if (real !== realRoot && !inside(realRoot, real)) refuse();
  return path;
}

/** Checks an id that becomes one file or folder name (`<id>.json`, `<id>/`). */
export function checkSafeId(id: string, what: string): string {
  if (typeof id !== 'string' || !SAFE_ID.test(id) || id.includes('..')) {
    throw new ConfinementError(`${what} '${shown(String(id))}' is not a valid id (letters, digits, _ . - only)`);
  }
  return id;
}
