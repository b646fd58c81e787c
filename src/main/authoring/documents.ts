// Objects as documents: every object of a task set is its folder tasks/objects/<name>/, with an
// object.json (the editable primitive definition) for built-in, authored and generated objects,
// or only photos for imported ones (NeRF, .ply), plus build.json (recipe, budgets, history).
// Inputs: a tasks folder and object names. Outputs: summaries, the parsed definition, the
// previous build record. Invariant: read-only; a broken object.json or build.json is reported
// with its path, never half-used.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseObject, type ProceduralObject } from '../../shared/authoring/primitives';
import { PROCEDURAL_OBJECT_NAMES } from '../../shared/authoring/objects/index';
import { layeredEntries, readObjectDir, taskFile } from '../tasks/paths';
import type { BuildHistoryEntry } from './pipeline';
import type { Budgets } from './task-files';

export interface ObjectDocument {
  name: string;
  /** 'procedural' (built-in), 'authored', 'generated', 'ply', 'nerf', ... as build.json says. */
  source: string;
  /** The primitive definition when the object has one (imports have only photos). */
  editable: boolean;
  builtIn: boolean;
  history: BuildHistoryEntry[];
}

/** What build.json says about an object's previous builds (missing fields are absent). */
export interface PreviousBuild {
  source?: string;
  steps?: number;
  seed?: number;
  k?: number;
  budgets?: Partial<Budgets>;
  history: BuildHistoryEntry[];
  /** The other provenance fields of build.json (e.g. a scene generator's seed), kept on a rebuild. */
  extra: Record<string, unknown>;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const RECIPE_KEYS = new Set(['object', 'steps', 'seed', 'k', 'gaussians', 'final_loss', 'lpips_model', 'source', 'action', 'budgets', 'history', 'scramble_seed', 'photo_size']);

/** Budgets of the object's existing sculpt spec (older builds recorded them only there). */
function specBudgets(tasksDir: string, name: string): Partial<Budgets> {
  const path = taskFile(tasksDir, `${name}__sculpt.json`);
  if (!existsSync(path)) return {};
  try {
    const spec = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    const out: Partial<Budgets> = {};
    if (num(spec.max_gaussians) !== undefined) out.gaussians = num(spec.max_gaussians);
    if (num(spec.max_tool_calls) !== undefined) out.calls = num(spec.max_tool_calls);
    if (num(spec.max_renders) !== undefined) out.renders = num(spec.max_renders);
    return out;
  } catch {
    return {};
  }
}

/** The object's previous build record; empty when it has none. */
export function readPreviousBuild(tasksDir: string, name: string): PreviousBuild {
  const path = join(readObjectDir(tasksDir, name), 'build.json');
  if (!existsSync(path)) return { budgets: specBudgets(tasksDir, name), history: [], extra: {} };
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`${path}: not valid JSON (${(err as Error).message})`);
  }
  const b = (raw.budgets ?? {}) as Record<string, unknown>;
  const budgets: Partial<Budgets> = {};
  for (const key of ['gaussians', 'calls', 'renders'] as const) if (num(b[key]) !== undefined) budgets[key] = num(b[key]);
  if (Object.keys(budgets).length === 0) Object.assign(budgets, specBudgets(tasksDir, name));
  const history = Array.isArray(raw.history) ? (raw.history as BuildHistoryEntry[]) : [];
  const extra = Object.fromEntries(Object.entries(raw).filter(([k]) => !RECIPE_KEYS.has(k)));
  return {
    source: typeof raw.source === 'string' ? raw.source : undefined,
    steps: num(raw.steps),
    seed: num(raw.seed),
    k: num(raw.k),
    budgets,
    history,
    extra,
  };
}

/** The object's primitive definition, or null when it has none (an import). */
export function readObjectDefinition(tasksDir: string, name: string): ProceduralObject | null {
  const path = join(readObjectDir(tasksDir, name), 'object.json');
  if (!existsSync(path)) return null;
  try {
    return parseObject(JSON.parse(readFileSync(path, 'utf8')));
  } catch (err) {
    throw new Error(`${path}: ${(err as Error).message}`);
  }
}

/** Every object folder of the task set, sorted by name; unreadable ones are left out. */
export function listObjectDocuments(tasksDir: string): ObjectDocument[] {
  const out: ObjectDocument[] = [];
  for (const { name, dir: root } of layeredEntries(tasksDir, 'objects').sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (name.startsWith('.') || name.includes('.old-')) continue;
    const dir = join(root, name);
    if (!existsSync(join(dir, 'cameras.json'))) continue;
    try {
      const prev = readPreviousBuild(tasksDir, name);
      const editable = existsSync(join(dir, 'object.json'));
      out.push({ name, source: prev.source ?? (editable ? 'authored' : 'unknown'), editable, builtIn: PROCEDURAL_OBJECT_NAMES.includes(name), history: prev.history });
    } catch {
      // A broken build.json: `splatlab check` reports the object's tasks; the list skips it.
    }
  }
  return out;
}

/** The definition and summary of an object to reopen in the Author view; throws in the user's words. */
export function openObject(tasksDir: string, name: string): { object: ProceduralObject; document: ObjectDocument } {
  const document = listObjectDocuments(tasksDir).find((d) => d.name === name);
  if (!document) throw new Error(`there is no object '${name}' in the task set`);
  const object = readObjectDefinition(tasksDir, name);
  if (!object) throw new Error(`'${name}' was imported from ${document.source} photos and has no parts to edit; rebuild it with 'splatlab author build ${name}'`);
  return { object: { ...object, name }, document };
}

/** Appends a history entry unless it repeats the last one (an identical rebuild changes nothing). */
export function extendHistory(history: readonly BuildHistoryEntry[], entry: BuildHistoryEntry): BuildHistoryEntry[] {
  const last = history.at(-1);
  const same = last !== undefined && JSON.stringify(last) === JSON.stringify(entry);
  return same ? [...history] : [...history, entry];
}
