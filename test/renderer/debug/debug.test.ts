// Debugger store and components: opening a scene closes the previous session and renders the
// view; a picked pixel is re-traced when the view changes and dropped when the camera does; a
// slow earlier answer never replaces a newer one; the contributor table and legend show what the
// API returned; export names are filesystem-safe.
import { beforeEach, describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import type { LabApi } from '../../../src/shared/api/lab';
import type { DebugImage, DebugPixel, DebugSession } from '../../../src/shared/api/debug';
import { useDebugStore } from '../../../src/renderer/stores/debug';
import ContributorTable from '../../../src/renderer/components/debug/ContributorTable.vue';
import LegendBar from '../../../src/renderer/components/debug/LegendBar.vue';
import { exportName, uploadProblem } from '../../../src/renderer/components/debug/files';

const PNG = 'data:image/png;base64,AAAA';
const image = (title: string): DebugImage => ({ image: PNG, figure: PNG, width: 4, height: 4, scale: 2, title, legend: null, stats: {}, note: null, shDegree: 0, camera: { width: 4, height: 4, fx: 4, fy: 4, cx: 2, cy: 2, world_to_camera: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 4, 0, 0, 0, 1] } });
const session = (id: string): DebugSession => ({ sessionId: id, label: id, count: 1, taskId: null, views: ['V0', 'V1', 'H0'], viewSize: { width: 4, height: 4 }, warnings: [], steps: null, step: null, gaussians: null, shDegree: 0, frame: null });
const pixel = (x: number, y: number, view: string): DebugPixel => ({
  x,
  y,
  contributors: [{ rank: 0, index: 0, id: 7, depth: 4.25, alpha: 0.5, T_before: 1, T_after: 0.5, contribution: [0.5, 0.25, 0], color: [1, 0.5, 0] }],
  stoppedBy: null,
  T_final: 0.5,
  rgb: [1, 0.75, 0.5],
  highlight: image(`${view} @ ${x},${y}`),
});

/** A fake LabApi recording calls; `delay` per method lets a test make one answer slow. */
function fakeApi(delay: Record<string, number> = {}): { api: LabApi; calls: { method: string; params: Record<string, unknown> }[] } {
  const calls: { method: string; params: Record<string, unknown> }[] = [];
  let opened = 0;
  const answer = (method: string, p: Record<string, unknown>): unknown => {
    if (method === 'debug.open') return session(`s${++opened}`);
    if (method === 'debug.close') return { closed: true };
    if (method === 'debug.view') return image(`${String(p.view)} ${JSON.stringify(p.camera)}`);
    if (method === 'debug.pixel') return pixel(p.x as number, p.y as number, String(p.view));
    throw new Error(`unexpected ${method}`);
  };
  const api = {
    async call(method: string, params: Record<string, unknown>) {
      calls.push({ method, params });
      const ms = typeof params.view === 'string' ? (delay[`${method}:${params.view}`] ?? 0) : 0;
      if (ms) await new Promise((r) => setTimeout(r, ms));
      return answer(method, params);
    },
    on: () => () => undefined,
  } as unknown as LabApi;
  return { api, calls };
}

beforeEach(() => setActivePinia(createPinia()));

describe('debug store', () => {
  it('opens, renders the view, and closes the previous session on the next open', async () => {
    const { api, calls } = fakeApi();
    const store = useDebugStore();
    await store.open(api, { kind: 'scene', text: '{}' });
    expect(store.session?.sessionId).toBe('s1');
    expect(store.shown?.title).toMatch(/^rgb /);
    await store.open(api, { kind: 'scene', text: '{}' });
    expect(calls.filter((c) => c.method === 'debug.close').map((c) => c.params.sessionId)).toEqual(['s1']);
  });

  it('re-traces the picked pixel on another view and drops it when the camera changes', async () => {
    const { api } = fakeApi();
    const store = useDebugStore();
    await store.open(api, { kind: 'scene', text: '{}' });
    await store.pick(api, 1, 2);
    expect(store.shown?.title).toBe('rgb @ 1,2');
    expect([...store.highlighted]).toEqual([7]);
    await store.setPanel(api, 'depth');
    expect(store.pixel?.highlight.title).toBe('depth @ 1,2');
    await store.setCamera(api, { kind: 'view', name: 'H0' });
    expect(store.pixel).toBeNull();
    expect(store.shown?.title).toContain('"H0"');
  });

  it('shows the latest request when an earlier one answers later', async () => {
    const { api } = fakeApi({ 'debug.view:coverage': 40 });
    const store = useDebugStore();
    await store.open(api, { kind: 'scene', text: '{}' });
    const slow = store.setPanel(api, 'coverage');
    await store.setPanel(api, 'count');
    await slow;
    expect(store.shown?.title).toMatch(/^count /);
    expect(store.busy).toBe(false);
  });
});

describe('debug components', () => {
  it('lists contributors with their numbers and the final value', () => {
    const w = mount(ContributorTable, { props: { pixel: pixel(3, 1, 'rgb') } });
    expect(w.get('h3').text()).toBe('Pixel (3, 1) · 1 contributor');
    const cells = w.get('[data-testid="debug-contributor"]').findAll('td').map((c) => c.text());
    expect(cells).toEqual(['0', '7', '4.2500', '0.5000', '1.0000', '0.5000', '0.500 0.250 0.000']);
    expect(w.get('[data-testid="debug-final"]').text()).toContain('[1.0000, 0.7500, 0.5000]');
  });

  it('labels the legend with min, max and the no-value colour', () => {
    const w = mount(LegendBar, { props: { legend: { min: 0, max: 12, log: false, label: 'count', none: 'no contributor' } } });
    expect(w.get('[data-testid="debug-legend-max"]').text()).toBe('max 12');
    expect(w.text()).toContain('no contributor');
  });

  it('makes safe export names and flags uploads over the message limit', () => {
    expect(exportName('test__sculpt: fit', 'V0', 'count', '')).toBe('test__sculpt_fit-V0-count.png');
    expect(uploadProblem('big.ply', 20e6)).toMatch(/big\.ply is 20\.0 MB/);
    expect(uploadProblem('small.ply', 1000)).toBeNull();
  });
});

describe('render progress and cancel', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it("shows this session's progress while a view renders, and Cancel asks main to stop it", async () => {
    const sent: { method: string; params: unknown }[] = [];
    type Progress = { task: string; done: number; total: number; message: string };
    const hook: { emit: ((p: Progress) => void) | null; finish: (() => void) | null } = { emit: null, finish: null };
    const api = {
      call: (async (method: string, params: unknown) => {
        sent.push({ method, params });
        if (method === 'debug.open') return session('s1');
        if (method === 'debug.cancel') {
          hook.finish?.();
          return { cancelled: true };
        }
        if (method === 'debug.view') return new Promise((_resolve, reject) => (hook.finish = () => reject(new Error('debug.view: cancelled'))));
        throw new Error(`unexpected ${method}`);
      }) as LabApi['call'],
      on: ((_event: string, handler: (p: Progress) => void) => {
        hook.emit = handler;
        return () => (hook.emit = null);
      }) as LabApi['on'],
    } as LabApi;
    const d = useDebugStore();
    const off = d.listen(api);
    const opened = d.open(api, { kind: 'task', taskId: 't' } as never);
    await new Promise((r) => setTimeout(r, 0));
    expect(d.busy).toBe(true);
    hook.emit?.({ task: 'debug other', done: 0, total: 3, message: 'not ours' });
    expect(d.progress).toBeNull();
    hook.emit?.({ task: 'debug s1', done: 1, total: 3, message: 'drawing the view' });
    expect(d.progress).toEqual({ done: 1, total: 3, message: 'drawing the view' });
    await d.cancel(api);
    await opened;
    expect(sent.map((c) => c.method)).toContain('debug.cancel');
    expect(d.busy).toBe(false);
    expect(d.progress).toBeNull();
    expect(d.error).toMatch(/cancelled/);
    off();
  });
});
