// Author store (Pinia setup store): the object being composed (parts, selection, undo/redo), its
// inline warnings, and the remote work on it through LabApi: the exact preview, the reference and
// held-out sheets, the fit job (progress, loss curve, snapshots, anchors, cancel), the scramble,
// saving the task, and imports.
// Inputs: edits from the viewport and inspector; author.* results and events. Invariant: only
// the composed object lives here as the source of truth; fit, scramble and save state mirror
// what main reports (a reload reads it back with author.status). The composition itself autosaves
// to localStorage on every change and is restored when the store is created (a reload keeps it).
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import { AuthorObjectSchema, type AuthorObject, type AuthorPart, type ObjectDocumentOut, type FitProgressEvent, FitSnapshotEvent, FitStatus, NamedImage, SaveResult, ScrambleResult } from '../../shared/api/author';
import type { LabApi } from '../../shared/api/lab';
import type { Camera } from '../../shared/raster/types';
import { PROCEDURAL_OBJECTS } from '../../shared/authoring/objects/index';
import { validateObject, type PartKind, type Vec3 } from '../../shared/authoring/primitives';
import { clonePart, distinctGroups, duplicatePart, mirrorPart, newPart, partWarnings, withDims } from '../authoring/parts';

type SheetView = { name: string; azimuth: number; elevation: number; image: string };
const HISTORY = 100;
/** localStorage key of the autosaved composition. */
export const AUTOSAVE_KEY = 'splatlab.author.composition';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The autosaved composition, or null when there is none or it no longer parses. */
function restoreAutosave(): AuthorObject | null {
  const raw = storage()?.getItem(AUTOSAVE_KEY);
  if (!raw) return null;
  try {
    const parsed = AuthorObjectSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
/** Drops float noise of a gizmo pose (matrix decompositions give 1e-16 for 0 and 0.30000000000000004). */
const tidy = (v: number): number => {
  const r = Math.round(v * 1e9) / 1e9;
  return Object.is(r, -0) ? 0 : r;
};
/** An error in the author's words: without the LabApi method name main prefixes (`author.save: ...`). */
export const message = (e: unknown): string => (e instanceof Error ? e.message : String(e)).replace(/^author(\.[a-zA-Z]+)+: /, '');

export const useAuthorStore = defineStore('author', () => {
  const object = ref<AuthorObject>(restoreAutosave() ?? { name: 'my_object', parts: [] });
  watch(object, (o) => storage()?.setItem(AUTOSAVE_KEY, JSON.stringify(o)), { deep: true });
  /** The task set's objects (author.objects), for "Start from". */
  const library = ref<ObjectDocumentOut[]>([]);
  const selection = ref<number[]>([]);
  const past = shallowRef<string[]>([]);
  const future = shallowRef<string[]>([]);

  const preview = ref<{ image: string; ms: number; source: string } | null>(null);
  const previewBusy = ref(false);
  const previewError = ref<string | null>(null);
  const sheets = ref<{ reference: SheetView[] | null; heldout: SheetView[] | null }>({ reference: null, heldout: null });
  const sheetBusy = ref<'reference' | 'heldout' | null>(null);

  const fit = ref<FitStatus | null>(null);
  /** The parts the current fit was made of (the fit is stale once they change). */
  const fittedKey = ref<string | null>(null);
  const fitError = ref<string | null>(null);
  const scramble = ref<ScrambleResult | null>(null);
  const scrambleBusy = ref(false);
  const saving = ref(false);
  const saved = ref<SaveResult | null>(null);
  const error = ref<string | null>(null);

  const warnings = computed(() => object.value.parts.map((p) => partWarnings(p)));
  const validation = computed(() => validateObject(object.value));
  const problems = computed(() => (validation.value.ok ? [] : validation.value.errors));
  const groups = computed(() => distinctGroups(object.value.parts));
  const selected = computed(() => selection.value.map((i) => object.value.parts[i]).filter((p): p is AuthorPart => p !== undefined));
  const fitRunning = computed(() => fit.value?.state === 'running');
  const fitStale = computed(() => fit.value !== null && fittedKey.value !== JSON.stringify(object.value.parts));
  const fitDone = computed(() => fit.value?.state === 'done' && !fitStale.value);

  /** Records the state before an edit (undo), clears redo, and invalidates derived pictures. */
  function edit(change: () => void): void {
    const before = JSON.stringify(object.value);
    change();
    // An edit that changes nothing (a gizmo click without a move, a field re-entered) is no undo step.
    if (JSON.stringify(object.value) === before) return;
    past.value = [...past.value.slice(-HISTORY + 1), before];
    future.value = [];
    sheets.value = { reference: null, heldout: null };
  }

  function restore(json: string): void {
    object.value = JSON.parse(json) as AuthorObject;
    selection.value = selection.value.filter((i) => i < object.value.parts.length);
    sheets.value = { reference: null, heldout: null };
  }
  function undo(): void {
    const last = past.value.at(-1);
    if (last === undefined) return;
    future.value = [...future.value, JSON.stringify(object.value)];
    past.value = past.value.slice(0, -1);
    restore(last);
  }
  function redo(): void {
    const next = future.value.at(-1);
    if (next === undefined) return;
    past.value = [...past.value, JSON.stringify(object.value)];
    future.value = future.value.slice(0, -1);
    restore(next);
  }

  function startEmpty(name = 'my_object'): void {
    edit(() => (object.value = { name, parts: [] }));
    selection.value = [];
  }
  function startFrom(name: string): void {
    const source = PROCEDURAL_OBJECTS[name];
    if (!source) return;
    edit(() => (object.value = { name: `${name}_copy`, parts: source.parts.map((p) => clonePart(p)) }));
    selection.value = [];
  }
  async function loadLibrary(api: LabApi): Promise<void> {
    try {
      library.value = (await api.call('author.objects', {})).objects;
    } catch (e) {
      error.value = message(e);
    }
  }
  /** Reopens an object of the task set under its own name (saving again replaces it). */
  async function open(api: LabApi, name: string): Promise<void> {
    try {
      const out = await api.call('author.open', { name });
      edit(() => (object.value = { name: out.object.name, parts: out.object.parts.map((p) => clonePart(p)) }));
      selection.value = [];
      error.value = null;
    } catch (e) {
      error.value = message(e);
    }
  }
  /** Adds a whole object's parts to the composition as one new group (one undo step) and selects them. */
  function insertObject(name: string, parts: readonly AuthorPart[]): void {
    const taken = new Set(object.value.parts.map((p) => p.group));
    let n = 1;
    while (taken.has(`${name}_${n}`)) n++;
    const group = `${name}_${n}`;
    const first = object.value.parts.length;
    edit(() => object.value.parts.push(...parts.map((p) => ({ ...clonePart(p), group }) as AuthorPart)));
    selection.value = parts.map((_, k) => first + k);
  }
  /** Inserts a built-in, or an object of the task set (fetched with author.open). */
  async function insertFrom(api: LabApi | undefined, name: string): Promise<void> {
    const builtIn = PROCEDURAL_OBJECTS[name];
    if (builtIn) return insertObject(name, builtIn.parts);
    if (!api) return;
    try {
      insertObject(name, (await api.call('author.open', { name })).object.parts);
      error.value = null;
    } catch (e) {
      error.value = message(e);
    }
  }
  function rename(name: string): void {
    object.value = { ...object.value, name };
  }

  function select(index: number | null, additive = false): void {
    if (index === null) selection.value = additive ? selection.value : [];
    else if (!additive) selection.value = [index];
    else selection.value = selection.value.includes(index) ? selection.value.filter((i) => i !== index) : [...selection.value, index];
  }
  function selectGroup(group: string): void {
    selection.value = object.value.parts.flatMap((p, i) => (p.group === group ? [i] : []));
  }

  function addPart(kind: PartKind, at: Vec3, color: string, group?: string): void {
    edit(() => object.value.parts.push(newPart(kind, at, color, group)));
    selection.value = [object.value.parts.length - 1];
  }
  /** Appends copies made by `make` of the selected parts and selects the copies. */
  function copySelection(make: (p: AuthorPart) => AuthorPart): void {
    const chosen = selected.value;
    if (!chosen.length) return;
    const first = object.value.parts.length;
    edit(() => object.value.parts.push(...chosen.map(make)));
    selection.value = chosen.map((_, k) => first + k);
  }
  const duplicateSelection = (): void => copySelection(duplicatePart);
  const mirrorSelection = (axis: 'x' | 'y'): void => copySelection((p) => mirrorPart(p, axis));
  function deleteSelection(): void {
    if (!selection.value.length) return;
    const drop = new Set(selection.value);
    edit(() => (object.value.parts = object.value.parts.filter((_, i) => !drop.has(i))));
    selection.value = [];
  }
  /** Replaces parts by index (one undo step for the whole change). */
  function updateParts(changes: { index: number; part: AuthorPart }[]): void {
    if (!changes.length) return;
    edit(() => {
      for (const c of changes) if (object.value.parts[c.index]) object.value.parts[c.index] = c.part;
    });
  }
  function patchSelected(patch: (p: AuthorPart) => AuthorPart): void {
    updateParts(selection.value.map((index) => ({ index, part: patch(clonePart(object.value.parts[index])) })));
  }
  function setGroup(group: string): void {
    const g = group.trim();
    patchSelected((p) => {
      if (g) p.group = g;
      else delete p.group;
      return p;
    });
  }
  function setColor(hex: string): void {
    patchSelected((p) => ({ ...p, color: hex }) as AuthorPart);
  }
  function applyPoses(poses: { index: number; pos: Vec3; rot: Vec3; dims: Vec3 }[]): void {
    updateParts(poses.map((q) => {
      const p = withDims(clonePart(object.value.parts[q.index]), q.dims.map(tidy) as Vec3);
      p.pos = q.pos.map(tidy) as Vec3;
      const rot = q.rot.map(tidy) as Vec3;
      if (rot.some((a) => a !== 0)) p.rot = rot;
      else delete p.rot;
      return { index: q.index, part: p };
    }));
  }

  async function refreshPreview(api: LabApi, source: string, camera?: Camera): Promise<void> {
    previewBusy.value = true;
    try {
      const params = source === 'viewport' && camera ? { object: object.value, camera } : { object: object.value, view: source };
      const out = await api.call('author.preview', params);
      preview.value = { ...out, source };
      previewError.value = null;
    } catch (e) {
      previewError.value = message(e);
    } finally {
      previewBusy.value = false;
    }
  }

  async function loadSheet(api: LabApi, set: 'reference' | 'heldout'): Promise<void> {
    sheetBusy.value = set;
    try {
      const out = await api.call('author.sheet', { object: object.value, set });
      sheets.value = { ...sheets.value, [set]: out.views };
      error.value = null;
    } catch (e) {
      error.value = message(e);
    } finally {
      sheetBusy.value = null;
    }
  }

  async function startFit(api: LabApi, steps: number, seed: number): Promise<void> {
    fitError.value = null;
    scramble.value = null;
    saved.value = null;
    try {
      const key = JSON.stringify(object.value.parts);
      fit.value = await api.call('author.fit.start', { object: object.value, steps, seed });
      fittedKey.value = key;
    } catch (e) {
      fitError.value = message(e);
    }
  }
  async function cancelFit(api: LabApi): Promise<void> {
    if (fit.value) await api.call('author.fit.cancel', { jobId: fit.value.jobId });
  }

  function onProgress(e: FitProgressEvent): void {
    const f = fit.value;
    if (!f || f.jobId !== e.jobId || f.state !== 'running') return;
    f.losses.splice(e.fromStep, f.losses.length - e.fromStep, ...e.losses);
    f.step = e.step;
    f.elapsedMs = e.elapsedMs;
  }
  function onSnapshot(e: FitSnapshotEvent): void {
    const f = fit.value;
    if (!f || f.jobId !== e.jobId) return;
    f.snapshot = e.views;
    f.snapshotStep = e.step;
  }
  function onEnd(s: FitStatus): void {
    if (!fit.value || fit.value.jobId === s.jobId) fit.value = s;
  }
  /** Subscribes to the fit events; returns the unsubscribe function. */
  function listen(api: LabApi): () => void {
    const offs = [api.on('author.fit', onProgress), api.on('author.fitSnapshot', onSnapshot), api.on('author.fitEnd', onEnd)];
    return () => offs.forEach((off) => off());
  }
  /** Reads main's session back (after a reload): the fit, its object when nothing is composed. */
  async function resume(api: LabApi): Promise<void> {
    const s = await api.call('author.status', {});
    fit.value = s.fit;
    scramble.value = s.scramble;
    if (s.object && object.value.parts.length === 0) object.value = s.object;
    if (s.object) fittedKey.value = JSON.stringify(s.object.parts);
  }

  async function runScramble(api: LabApi, k: number, seed: number, groups = false): Promise<void> {
    scrambleBusy.value = true;
    try {
      scramble.value = await api.call('author.scramble', groups ? { k, seed, groups } : { k, seed });
      error.value = null;
    } catch (e) {
      error.value = message(e);
    } finally {
      scrambleBusy.value = false;
    }
  }

  async function save(api: LabApi, name: string, overwrite: boolean): Promise<SaveResult | null> {
    saving.value = true;
    try {
      saved.value = await api.call('author.save', { name, overwrite });
      error.value = null;
      return saved.value;
    } catch (e) {
      error.value = message(e);
      return null;
    } finally {
      saving.value = false;
    }
  }

  const snapshot = computed<NamedImage[]>(() => fit.value?.snapshot ?? []);

  return {
    object, selection, selected, warnings, problems, groups, canUndo: computed(() => past.value.length > 0), canRedo: computed(() => future.value.length > 0),
    preview, previewBusy, previewError, sheets, sheetBusy, fit, fitError, fitRunning, fitDone, fitStale, snapshot, scramble, scrambleBusy, saving, saved, error,
    library, loadLibrary, open, insertObject, insertFrom,
    undo, redo, startEmpty, startFrom, rename, select, selectGroup, addPart, duplicateSelection, mirrorSelection, deleteSelection,
    updateParts, setGroup, setColor, applyPoses, refreshPreview, loadSheet, startFit, cancelFit, onProgress, onSnapshot, onEnd, listen, resume,
    runScramble, save,
  };
});
