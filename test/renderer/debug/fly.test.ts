// The debugger's SH toggle, up-axis choice and fly controls in the renderer: the asked degree
// travels with every view request and the panel disables degrees the scene lacks; choosing an up
// axis calls debug.frame and re-renders; fly keys move the free camera only when not typed into
// an input, steps made while a view renders fold into one more render, a drag looks and is not a pick.
import { beforeEach, describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import type { LabApi } from '../../../src/shared/api/lab';
import type { DebugImage, DebugSession } from '../../../src/shared/api/debug';
import { useDebugStore } from '../../../src/renderer/stores/debug';
import ViewOptions from '../../../src/renderer/components/debug/ViewOptions.vue';
import { flyControls } from '../../../src/renderer/components/debug/fly-controls';
import type { FreeView } from '../../../src/shared/debug/free-camera';

const PNG = 'data:image/png;base64,AAAA';
const CAM = { width: 4, height: 4, fx: 4, fy: 4, cx: 2, cy: 2, world_to_camera: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 4, 0, 0, 0, 1] };
const image = (p: Record<string, unknown>): DebugImage => ({ image: PNG, figure: PNG, width: 4, height: 4, scale: 2, title: JSON.stringify(p.camera), legend: null, stats: {}, note: null, shDegree: (p.shDegree as number | undefined) ?? 3, camera: CAM });
const frame = (up: '+z' | '-y', chosen: 'detected' | '-y') => ({ chosen, up, detected: null, convention: '-y' as const, line: up === '+z' ? 'axes as stored (x; up -y, guess): nothing rotated' : 'up axis -y (chosen): turned' });
const session = (shDegree: number, up: '+z' | '-y' = '+z'): DebugSession => ({
  sessionId: 's1', label: 'cap.ply', count: 1, taskId: null, views: ['V0'], viewSize: { width: 4, height: 4 }, warnings: [], steps: null, step: null, gaussians: null, shDegree, frame: frame(up, up === '+z' ? 'detected' : '-y'),
});

function fakeApi(slowViews = 0): { api: LabApi; calls: { method: string; params: Record<string, unknown> }[] } {
  const calls: { method: string; params: Record<string, unknown> }[] = [];
  const api = {
    async call(method: string, params: Record<string, unknown>) {
      calls.push({ method, params });
      if (method === 'debug.open') return session(3);
      if (method === 'debug.frame') return session(3, params.up as '-y');
      if (method === 'debug.view') {
        if (slowViews) await new Promise((r) => setTimeout(r, slowViews));
        return image(params);
      }
      return { closed: true };
    },
    on: () => () => undefined,
  } as unknown as LabApi;
  return { api, calls };
}

beforeEach(() => setActivePinia(createPinia()));

describe('SH degree and up axis', () => {
  it('sends the asked degree with the view and re-renders on an up-axis choice', async () => {
    const { api, calls } = fakeApi();
    const store = useDebugStore();
    await store.open(api, { kind: 'upload', uploadId: 'u', up: 'detected' });
    expect(calls.at(-1)?.params.shDegree).toBeUndefined();
    await store.setShDegree(api, 0);
    expect(calls.at(-1)?.params.shDegree).toBe(0);
    await store.setFrame(api, '-y');
    expect(calls.at(-2)).toEqual({ method: 'debug.frame', params: { sessionId: 's1', up: '-y' } });
    expect(calls.at(-1)?.method).toBe('debug.view');
    expect(store.session?.frame?.up).toBe('-y');
  });

  it('disables degrees the scene does not have and shows the frame line', async () => {
    const w = mount(ViewOptions, { props: { session: session(1), shDegree: null, busy: false } });
    expect(w.get('[data-testid="debug-sh-1"]').classes()).toContain('active');
    expect(w.get('[data-testid="debug-sh-2"]').attributes('disabled')).toBeDefined();
    expect(w.get('[data-testid="debug-sh-0"]').attributes('disabled')).toBeUndefined();
    await w.get('[data-testid="debug-sh-0"]').trigger('click');
    expect(w.emitted('degree')?.[0]).toEqual([0]);
    expect(w.get('[data-testid="debug-frame-line"]').text()).toMatch(/^axes as stored/);
    await w.get('[data-testid="debug-up"]').setValue('-y');
    expect(w.emitted('up')?.[0]).toEqual(['-y']);
  });
});

describe('fly controls', () => {
  const start: FreeView = { eye: [4, 0, 0], target: [0, 0, 0], fov: 50, width: 4, height: 4 };
  const key = (code: string, target: EventTarget): KeyboardEvent => {
    const e = new KeyboardEvent('keydown', { code, cancelable: true });
    Object.defineProperty(e, 'target', { value: target });
    return e;
  };

  it('moves on fly keys, never on keys typed into an input', () => {
    const moved: FreeView[] = [];
    const c = flyControls({ base: () => start, step: () => 0.5, move: (v) => moved.push(v) });
    const viewport = document.createElement('figure');
    c.onKey(key('KeyW', viewport));
    expect(moved[0].eye[0]).toBeCloseTo(3.5, 12);
    c.onKey(key('KeyE', viewport));
    expect(moved[1].eye[2]).toBeCloseTo(0.5, 12);
    const input = document.createElement('input');
    viewport.appendChild(input);
    c.onKey(key('KeyW', input));
    c.onKey(key('KeyX', viewport));
    expect(moved).toHaveLength(2);
  });

  it('turns the view on a drag and does not count the drag as a click', () => {
    const moved: FreeView[] = [];
    const c = flyControls({ base: () => start, step: () => 0.5, move: (v) => moved.push(v) });
    const at = (x: number, y: number, buttons = 1) => ({ clientX: x, clientY: y, button: 0, buttons, pointerId: 1, currentTarget: null }) as unknown as PointerEvent;
    c.onPointerDown(at(10, 10));
    c.onPointerMove(at(11, 10));
    expect(moved).toHaveLength(0);
    c.onPointerMove(at(40, 10));
    expect(moved).toHaveLength(1);
    expect(moved[0].eye).toEqual(start.eye);
    expect(moved[0].target[1]).toBeGreaterThan(0); // dragged right: the view turns right (+y is the camera's right here)
    c.onPointerUp();
    expect(c.consumeDrag()).toBe(true);
    expect(c.consumeDrag()).toBe(false);
  });

  it('folds fly steps made during a render into one more render from the latest camera', async () => {
    const { api, calls } = fakeApi(30);
    const store = useDebugStore();
    await store.open(api, { kind: 'upload', uploadId: 'u', up: 'detected' });
    const before = calls.length;
    const first = store.setFree(api, start);
    void store.setFree(api, { ...start, eye: [3, 0, 0] });
    const last = store.setFree(api, { ...start, eye: [2, 0, 0] });
    await Promise.all([first, last]);
    const views = calls.slice(before).filter((c) => c.method === 'debug.view');
    expect(views).toHaveLength(2);
    expect(views[1].params.camera).toEqual({ kind: 'json', text: store.freeText });
    expect(store.free?.eye).toEqual([2, 0, 0]);
  });
});
