// The author store and its pure part edits: mirrored copies, extents, inline warnings, undo, the
// fit events merged into the loss curve, and save refreshing nothing it should not.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import type { LabApi } from '../../../src/shared/api/lab';
import type { AuthorPart, FitStatus } from '../../../src/shared/api/author';
import { AUTOSAVE_KEY, useAuthorStore } from '../../../src/renderer/stores/author';
import { mirrorPart, partDims, partWarnings, withDims } from '../../../src/renderer/authoring/parts';
import { chooseTransforms, framePaths, nerfFiles, relativePaths, toBase64 } from '../../../src/renderer/authoring/upload';

const status = (over: Partial<FitStatus> = {}): FitStatus => ({
  jobId: 'j1', state: 'running', step: 0, steps: 4, seed: 0, size: 256, losses: [], elapsedMs: 0, backend: 'cpu', gaussians: 0,
  snapshot: [], snapshotStep: 0, anchors: null, error: null, stale: false, ...over,
});

function fakeApi(): LabApi & { sent: { method: string; params: unknown }[] } {
  const sent: { method: string; params: unknown }[] = [];
  return {
    sent,
    call: (async (method: string, params: unknown) => {
      sent.push({ method, params });
      if (method === 'author.fit.start') return status();
      if (method === 'author.preview') return { image: 'data:image/png;base64,AA==', ms: 3 };
      throw new Error(`unexpected ${method}`);
    }) as LabApi['call'],
    on: () => () => undefined,
  };
}

describe('part edits', () => {
  const cone: AuthorPart = { kind: 'cone', pos: [0.2, 0.3, 0], rot: [10, 20, 30], size: { radius: 0.1, height: 0.4 }, color: '#ff0000' };

  it('mirrors position and turns so the copy is the reflection', () => {
    expect(mirrorPart(cone, 'x')).toMatchObject({ pos: [-0.2, 0.3, 0], rot: [10, -20, -30] });
    expect(mirrorPart(cone, 'y')).toMatchObject({ pos: [0.2, -0.3, 0], rot: [-10, 20, -30] });
    expect(cone.pos).toEqual([0.2, 0.3, 0]);
  });

  it('round-trips extents and keeps an even sphere a plain radius', () => {
    expect(partDims(cone)).toEqual([0.2, 0.2, 0.4]);
    expect(withDims(cone, [0.4, 0.2, 0.5]).size).toEqual({ radius: 0.15, height: 0.5 });
    const ball: AuthorPart = { kind: 'sphere', pos: [0, 0, 0], size: 0.2, color: '#00ff00' };
    expect(withDims(ball, [0.6, 0.6, 0.6]).size).toBe(0.3);
    expect(withDims(ball, [0.6, 0.4, 0.6]).size).toEqual([0.3, 0.2, 0.3]);
  });

  it('warns inline about parts outside the bounds and parts too small to see', () => {
    expect(partWarnings(cone)).toEqual([]);
    expect(partWarnings({ ...cone, pos: [0.95, 0, 0] })[0]).toMatch(/outside the bounds cube on x/);
    expect(partWarnings({ kind: 'sphere', pos: [0, 0, 0], size: 0.01, color: '#000000' })[0]).toMatch(/px across at 256x256/);
  });
});

describe('upload helpers', () => {
  it('picks the transforms file the CLI would and the frames it lists', () => {
    const paths = relativePaths([{ name: 'a', webkitRelativePath: 'lego/transforms_val.json' }, { name: 'b', webkitRelativePath: 'lego/transforms_train.json' }, { name: 'c', webkitRelativePath: 'lego/train/r_0.png' }]);
    expect(paths).toEqual(['transforms_val.json', 'transforms_train.json', 'train/r_0.png']);
    expect(chooseTransforms(paths)).toBe('transforms_train.json');
    const text = JSON.stringify({ camera_angle_x: 0.7, frames: [{ file_path: './train/r_0', transform_matrix: [] }] });
    expect(framePaths(text)).toEqual(['train/r_0.png']);
    const files = paths.map((path) => ({ path, file: new Blob([path]) }));
    expect(nerfFiles(files, text, 'transforms_train.json').map((f) => f.path)).toEqual(['transforms_train.json', 'train/r_0.png']);
    expect(() => nerfFiles(files.slice(0, 2), text, 'transforms_train.json')).toThrow(/missing 1 of 1 frame/);
    expect(toBase64(new Uint8Array([104, 105]))).toBe('aGk=');
  });
});

describe('author store', () => {
  beforeEach(() => {
    localStorage.clear();
    setActivePinia(createPinia());
  });

  it('autosaves the composition and restores it in a new store (a reload)', async () => {
    const a = useAuthorStore();
    a.addPart('sphere', [0.1, 0, 0], '#abcdef');
    a.rename('lamp');
    await Promise.resolve();
    setActivePinia(createPinia());
    const b = useAuthorStore();
    expect(b.object.name).toBe('lamp');
    expect(b.object.parts).toEqual(a.object.parts);
    localStorage.setItem(AUTOSAVE_KEY, '{"name": 3}');
    setActivePinia(createPinia());
    expect(useAuthorStore().object).toEqual({ name: 'my_object', parts: [] });
  });

  it('makes no undo step for an edit that changes nothing, and tidies gizmo float noise', () => {
    const a = useAuthorStore();
    a.addPart('box', [0.2, 0.1, 0], '#112233');
    const part = a.object.parts[0];
    a.updateParts([{ index: 0, part: { ...part } }]);
    a.applyPoses([{ index: 0, pos: [0.2, 0.1, 0], rot: [1e-17, -1e-16, 0], dims: partDims(part) }]);
    expect(a.object.parts[0].rot).toBeUndefined();
    a.applyPoses([{ index: 0, pos: [0.30000000000000004, 0.1, 0], rot: [0, 0, 0], dims: partDims(part) }]);
    expect(a.object.parts[0].pos[0]).toBe(0.3);
    a.undo();
    expect(a.object.parts[0].pos[0]).toBe(0.2);
    a.undo();
    expect(a.object.parts).toEqual([]);
    expect(a.canUndo).toBe(false);
  });

  it('lists the task set and reopens an object under its own name', async () => {
    const a = useAuthorStore();
    const api = fakeApi();
    const base = api.call;
    api.call = (async (method: string, params: unknown) => {
      if (method === 'author.objects') return { objects: [{ name: 'lamp', source: 'authored', editable: true, builtIn: false, history: [] }] };
      if (method === 'author.open') return { object: { name: 'lamp', parts: [{ kind: 'sphere', pos: [0, 0, 0], size: 0.2, color: '#ffffff' }] }, document: { name: 'lamp', source: 'authored', editable: true, builtIn: false, history: [] } };
      return base(method as never, params as never);
    }) as LabApi['call'];
    await a.loadLibrary(api);
    expect(a.library.map((d) => d.name)).toEqual(['lamp']);
    await a.open(api, 'lamp');
    expect(a.object.name).toBe('lamp');
    expect(a.object.parts).toHaveLength(1);
    a.undo();
    expect(a.object.parts).toEqual([]);
  });

  it('adds, mirrors, groups and undoes as whole steps', () => {
    const a = useAuthorStore();
    a.addPart('box', [0.2, 0.1, 0], '#112233');
    a.mirrorSelection('x');
    expect(a.object.parts.map((p) => p.pos[0])).toEqual([0.2, -0.2]);
    expect(a.selection).toEqual([1]);
    a.select(0, true);
    a.setGroup('legs');
    expect(a.groups).toEqual(['legs']);
    a.undo();
    expect(a.groups).toEqual([]);
    a.redo();
    a.selectGroup('legs');
    expect(a.selection).toEqual([0, 1]);
    a.startFrom('snowman');
    expect(a.object.name).toBe('snowman_copy');
    expect(a.problems).toEqual([]);
  });

  it('merges fit progress events into the loss curve and marks the fit stale after an edit', async () => {
    const a = useAuthorStore();
    const api = fakeApi();
    a.addPart('sphere', [0, 0, 0], '#ff0000');
    await a.startFit(api, 4, 2);
    expect(api.sent[0]).toMatchObject({ method: 'author.fit.start', params: { steps: 4, seed: 2 } });
    a.onProgress({ jobId: 'j1', step: 2, steps: 4, fromStep: 0, losses: [0.5, 0.4], elapsedMs: 10 });
    a.onProgress({ jobId: 'other', step: 3, steps: 4, fromStep: 2, losses: [9], elapsedMs: 10 });
    a.onProgress({ jobId: 'j1', step: 4, steps: 4, fromStep: 2, losses: [0.3, 0.2], elapsedMs: 20 });
    expect(a.fit?.losses).toEqual([0.5, 0.4, 0.3, 0.2]);
    expect(a.fitDone).toBe(false);
    a.onEnd(status({ state: 'done', step: 4, losses: [0.5, 0.4, 0.3, 0.2] }));
    expect(a.fitDone).toBe(true);
    a.addPart('box', [0, 0, 0.5], '#00ff00');
    expect(a.fitStale).toBe(true);
    expect(a.fitDone).toBe(false);
  });

  it('previews from the viewport camera or a named view', async () => {
    const a = useAuthorStore();
    const api = fakeApi();
    await a.refreshPreview(api, 'H3');
    expect(api.sent[0].params).toMatchObject({ view: 'H3' });
    expect(a.preview?.source).toBe('H3');
  });
});

describe('multi-object composition', () => {
  beforeEach(() => {
    localStorage.clear();
    setActivePinia(createPinia());
  });

  it('adds whole objects as groups of their own, in one undo step each', async () => {
    const a = useAuthorStore();
    await a.insertFrom(undefined, 'snowman');
    await a.insertFrom(undefined, 'snowman');
    expect(a.groups).toEqual(['snowman_1', 'snowman_2']);
    expect(a.selection).toHaveLength(a.object.parts.length / 2);
    a.undo();
    expect(a.groups).toEqual(['snowman_1']);
  });
});
