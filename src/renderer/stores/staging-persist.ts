// Staged (uncommitted) edits kept in the page's localStorage, one entry per episode key, so they
// survive a reload, a pause and a lost or restarted lab server. The episode store saves after
// every change and restores when it loads the episode again.
// Inputs: the staging state (base scene, ops, undo/redo stacks). Output: the same, read back.
// Invariant: an entry that does not parse as staging state is dropped, never applied.
import type { StagedOp, WorkScene } from './staging-ops';

export interface SavedStaging {
  v: 1;
  key: string;
  base: WorkScene;
  ops: StagedOp[];
  past: StagedOp[][];
  future: StagedOp[][];
}

const PREFIX = 'splatlab-staged:';

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage may be unavailable (private mode): staged edits then live in memory only
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function valid(v: unknown, key: string): v is SavedStaging {
  if (!isObject(v) || v.v !== 1 || v.key !== key) return false;
  const base = v.base;
  if (!isObject(base) || !Array.isArray(base.records) || typeof base.nextId !== 'number') return false;
  const opList = (x: unknown): boolean => Array.isArray(x) && x.every((op) => isObject(op) && typeof op.kind === 'string' && typeof op.label === 'string');
  return opList(v.ops) && Array.isArray(v.past) && v.past.every(opList) && Array.isArray(v.future) && v.future.every(opList);
}

export function saveStaging(saved: SavedStaging): void {
  try {
    const s = storage();
    if (!s) return;
    if (saved.ops.length === 0 && saved.past.length === 0 && saved.future.length === 0) s.removeItem(PREFIX + saved.key);
    else s.setItem(PREFIX + saved.key, JSON.stringify(saved));
  } catch {
    // Full or unavailable storage: the edits stay in memory (a reload would lose them).
  }
}

export function loadStaging(key: string): SavedStaging | null {
  try {
    const raw = storage()?.getItem(PREFIX + key);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    if (valid(value, key)) return value;
  } catch {
    // Not JSON: dropped below.
  }
  dropStaging(key);
  return null;
}

export function dropStaging(key: string): void {
  try {
    storage()?.removeItem(PREFIX + key);
  } catch {
    // See storage().
  }
}
