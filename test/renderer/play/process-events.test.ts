// Issue 24 item 5: every person-side process event the play components emit reaches the recorder's
// queue (which the heartbeat sends and main appends to <log>.process.ndjson), each valid under the
// log's schema: gizmo drag start/end, photo enlarged/snapped, render viewer opened/blinked/
// differenced, values typed in the inspector, outliner hide/solo and help opened.
// (docs/STUDIES.md "Process log")
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { ProcessEventSchema, type ProcessEvent } from '../../../src/shared/env/process-log';
import { recordProcess, takeProcessEvents } from '../../../src/renderer/stores/process-recorder';
import { useStagingStore } from '../../../src/renderer/stores/staging';
import type { ViewportEvents } from '../../../src/renderer/viewport/viewport';

// The viewport needs WebGL; a stand-in keeps the events ViewportPanel hands it.
const seen: { events: ViewportEvents | null } = { events: null };
// Every other method the panel and the selection tools call is a no-op (the stand-in answers any
// name), so a new viewport method never breaks what this file checks: the events.
vi.mock('../../../src/renderer/viewport/viewport', () => ({
  Viewport: class {
    constructor(_host: unknown, events: ViewportEvents) {
      seen.events = events;
      return new Proxy(this, { get: (target, key) => (key in target ? Reflect.get(target, key) : () => undefined) });
    }
    currentCamera(): null {
      return null;
    }
  },
}));

const { default: HelpOverlay } = await import('../../../src/renderer/components/play/HelpOverlay.vue');
const { default: Inspector } = await import('../../../src/renderer/components/play/Inspector.vue');
const { default: Outliner } = await import('../../../src/renderer/components/play/Outliner.vue');
const { default: ReferenceSheet } = await import('../../../src/renderer/components/play/ReferenceSheet.vue');
const { default: RenderViewer } = await import('../../../src/renderer/components/play/RenderViewer.vue');
const { default: ViewportPanel } = await import('../../../src/renderer/components/play/ViewportPanel.vue');

const camera = { width: 8, height: 8, fx: 8, fy: 8, cx: 4, cy: 4, world_to_camera: Array(16).fill(0) };
const views = ['V0', 'V1'].map((name) => ({ name, camera, photo: 'data:image/png;base64,AA==' }));

function taken(): ProcessEvent[] {
  const out = takeProcessEvents();
  for (const e of out) expect(ProcessEventSchema.safeParse(e).success, JSON.stringify(e)).toBe(true);
  return out;
}

describe('process events from the play components', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    recordProcess(true);
    takeProcessEvents();
  });
  afterEach(() => recordProcess(false));

  it('help opened', () => {
    mount(HelpOverlay);
    expect(taken().map((e) => e.e)).toEqual(['help']);
  });

  it('a value typed in the inspector, with its field and value', async () => {
    const staging = useStagingStore();
    staging.reset([{ id: 3, pos: [0, 0, 0], scale: [0.1, 0.1, 0.1], quat: [1, 0, 0, 0], color: [1, 1, 1], opacity: 1 }], 4);
    staging.select([3], 'replace');
    const w = mount(Inspector, { props: { disabled: false } });
    takeProcessEvents();
    await w.get('[data-testid="insp-opacity"]').setValue('0.5');
    const typed = taken().filter((e) => e.e === 'inspector.type');
    expect(typed).toHaveLength(1);
    expect(typed[0].d).toEqual({ field: 'insp-opacity', value: '0.5' });
  });

  it('outliner hide (one Gaussian, a group) and solo', async () => {
    const staging = useStagingStore();
    staging.reset([
      { id: 0, pos: [0, 0, 0], scale: [0.1, 0.1, 0.1], quat: [1, 0, 0, 0], color: [1, 1, 1], opacity: 1, group: 'arm' },
      { id: 1, pos: [0, 0, 0], scale: [0.1, 0.1, 0.1], quat: [1, 0, 0, 0], color: [1, 1, 1], opacity: 1 },
    ], 2);
    const w = mount(Outliner, { props: { disabled: false } });
    await w.get('[data-testid="ol-group-arm"] .eye').trigger('click');
    await w.get('[data-testid="ol-fold-loose"]').trigger('click');
    await w.get('[data-testid="ol-g-1"] .eye').trigger('click');
    await w.get('[data-testid="ol-solo-arm"]').trigger('click');
    expect(taken().map((e) => [e.e, e.d])).toEqual([
      ['outliner.hide', { group: 'arm', hidden: true }],
      ['outliner.hide', { id: 1, hidden: true }],
      ['outliner.solo', { group: 'arm' }],
    ]);
  });

  it('a reference photo enlarged', async () => {
    const w = mount(ReferenceSheet, { props: { views } });
    await w.findAll('img')[1].trigger('click');
    expect(taken().map((e) => [e.e, e.d])).toEqual([['photo.enlarge', { view: 'V1' }]]);
  });

  it('the render viewer opened, blinked and differenced', async () => {
    const w = mount(RenderViewer, { props: { entries: [], views, start: -1 } });
    await w.get('[data-testid="viewer-blink"]').trigger('click');
    await w.get('[data-testid="viewer-diff"]').trigger('click');
    expect(taken().map((e) => e.e)).toEqual(['viewer.open', 'viewer.blink', 'viewer.diff']);
    w.unmount();
  });

  it('gizmo drag start and end, and a photo snapped, from the viewport panel', async () => {
    const w = mount(ViewportPanel, { props: { views, protocol: 'matched', disabled: false }, attachTo: document.body });
    // The panel places the page's kept viewport after the episode's first frame (kept-viewport.ts).
    await vi.waitFor(() => expect(seen.events?.drag).toBeTypeOf('function'), { timeout: 30_000 });
    seen.events?.drag?.('start', 'rotate');
    seen.events?.drag?.('end', 'rotate');
    (w.vm as unknown as { snap: (i: number) => void }).snap(0);
    expect(taken().map((e) => [e.e, e.d])).toEqual([
      ['gizmo.start', { mode: 'rotate', n: 0 }],
      ['gizmo.end', { mode: 'rotate', n: 0 }],
      ['photo.snap', { view: 'V0' }],
    ]);
    w.unmount();
  });
});
