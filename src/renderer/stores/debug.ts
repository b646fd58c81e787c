// Debugger store (Pinia setup store): the open debug session, the camera (and the free camera's
// eye and target while flying), the SH degree asked, the view on screen, the picked pixel's trace
// and the gradient view. Inputs: LabApi rows debug.open / frame / view / pixel / gradients /
// close. Output: reactive state for DebugView.
// Invariants: experimenter-only (main refuses the rows during a participant session); a later
// request wins over an earlier slow one (tickets), so a fast click sequence never shows a stale
// image under a newer pixel list; fly steps made while a view renders are folded into one render.
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { LabApi, LabResult } from '../../shared/api/lab';
import type { DebugCamera, DebugGradientsResult, DebugImage, DebugLoss, DebugPixel, DebugSession, DebugSource, DebugUp, DebugView } from '../../shared/api/debug';
import { lookAtCamera, type FreeView } from '../../shared/debug/free-camera';
import type { GradientParam } from '../../shared/debug/gradients';

/** What the image area shows: one of the main views, or the gradient view. */
export type DebugPanel = DebugView | 'gradients';

export interface GradientSettings {
  loss: DebugLoss;
  param: GradientParam;
  arrows: boolean;
  log: boolean;
  /** Base64 PNG to compare against; null = the task's photo of the named view. */
  png: string | null;
}

export const useDebugStore = defineStore('debug', () => {
  const session = ref<DebugSession | null>(null);
  const camera = ref<DebugCamera>({ kind: 'view', name: 'V0' });
  const panel = ref<DebugPanel>('rgb');
  const image = ref<DebugImage | null>(null);
  const pixel = ref<DebugPixel | null>(null);
  const gradients = ref<DebugGradientsResult | null>(null);
  const gradientSettings = ref<GradientSettings>({ loss: 'mix', param: 'means', arrows: true, log: false, png: null });
  const busy = ref(false);
  const error = ref<string | null>(null);
  /** The running render's progress (main's `progress` events for this session), null when none. */
  const progress = ref<{ done: number; total: number; message: string } | null>(null);
  /** SH degree the views are asked at; null = all the scene has. */
  const shDegree = ref<number | null>(null);
  /** The free camera's eye and target, and the camera JSON it was last sent as (null: not flying). */
  const free = ref<FreeView | null>(null);
  const freeText = ref<string | null>(null);
  let ticket = 0;
  let flying: Promise<void> | null = null;
  let flyAgain = false;

  /** Follows main's progress events of this session's renders; returns the unsubscribe. */
  function listen(api: LabApi): () => void {
    return api.on('progress', (p) => {
      if (busy.value && session.value && p.task === `debug ${session.value.sessionId}`) progress.value = { done: p.done, total: p.total, message: p.message };
    });
  }

  /** Stops this session's renders in main (the pending request then fails with one line). */
  async function cancel(api: LabApi): Promise<void> {
    const s = session.value;
    if (!s || !busy.value) return;
    await api.call('debug.cancel', { sessionId: s.sessionId }).catch(() => undefined);
  }

  /** The image on screen: the pixel highlight when a pixel is picked on this view, else the view. */
  const shown = computed<DebugImage | null>(() => {
    if (panel.value === 'gradients') return gradients.value;
    return pixel.value ? pixel.value.highlight : image.value;
  });
  /** Ids picked in the inspector's finders, highlighted in the 3D view with the pixel's contributors. */
  const inspected = ref<number[]>([]);
  const highlighted = computed(() => new Set([...(pixel.value?.contributors.map((c) => c.id) ?? []), ...inspected.value]));

  async function guarded<T>(work: () => Promise<T>): Promise<{ value: T; current: boolean } | null> {
    const mine = ++ticket;
    busy.value = true;
    error.value = null;
    try {
      const value = await work();
      return { value, current: mine === ticket };
    } catch (e) {
      if (mine === ticket) error.value = e instanceof Error ? e.message : String(e);
      return null;
    } finally {
      if (mine === ticket) {
        busy.value = false;
        progress.value = null;
      }
    }
  }

  async function open(api: LabApi, source: DebugSource): Promise<boolean> {
    const r = await guarded(() => api.call('debug.open', { source }));
    if (!r) return false;
    const old = session.value;
    session.value = r.value;
    if (old) void api.call('debug.close', { sessionId: old.sessionId }).catch(() => undefined);
    if (camera.value.kind === 'view' && !r.value.views.includes(camera.value.name)) camera.value = { kind: 'view', name: r.value.views[0] ?? 'V0' };
    gradients.value = null;
    shDegree.value = null;
    await refresh(api);
    return true;
  }

  /** Re-renders the current panel (camera or view changed); drops the picked pixel. */
  async function refresh(api: LabApi): Promise<void> {
    const s = session.value;
    if (!s) return;
    pixel.value = null;
    if (panel.value === 'gradients') return computeGradients(api);
    const view = panel.value;
    const r = await guarded(() => api.call('debug.view', { sessionId: s.sessionId, camera: camera.value, view, ...degree() }));
    if (r?.current) image.value = r.value;
  }

  /** The `shDegree` parameter of a request: absent when all the scene has is asked. */
  function degree(): { shDegree?: number } {
    return shDegree.value === null ? {} : { shDegree: shDegree.value };
  }

  async function setShDegree(api: LabApi, next: number | null): Promise<void> {
    shDegree.value = next;
    await refresh(api);
  }

  /** Shows the open splat file with another up axis (main turns it); the view re-renders as the preview. */
  async function setFrame(api: LabApi, up: DebugUp): Promise<void> {
    const s = session.value;
    if (!s) return;
    const r = await guarded(() => api.call('debug.frame', { sessionId: s.sessionId, up }));
    if (!r) return;
    session.value = r.value;
    await refresh(api);
  }

  /** Looks through the free camera `v`; steps made while a view renders are sent as one render after it. */
  async function setFree(api: LabApi, v: FreeView): Promise<void> {
    let text: string;
    try {
      text = JSON.stringify(lookAtCamera(v));
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
      return;
    }
    free.value = v;
    freeText.value = text;
    camera.value = { kind: 'json', text };
    if (flying) {
      flyAgain = true;
      return flying;
    }
    flying = (async () => {
      do {
        flyAgain = false;
        await refresh(api);
      } while (flyAgain);
    })();
    try {
      await flying;
    } finally {
      flying = null;
    }
  }

  async function setPanel(api: LabApi, next: DebugPanel): Promise<void> {
    const keepPixel = pixel.value;
    panel.value = next;
    await refresh(api);
    // A picked pixel follows the user across views: re-trace it on the new view.
    if (keepPixel && next !== 'gradients') await pick(api, keepPixel.x, keepPixel.y);
  }

  async function setCamera(api: LabApi, next: DebugCamera): Promise<void> {
    // Another camera chosen: the next fly step starts from it, not from an old free view.
    if (!(next.kind === 'json' && next.text === freeText.value)) {
      free.value = null;
      freeText.value = null;
    }
    camera.value = next;
    await refresh(api);
  }

  async function pick(api: LabApi, x: number, y: number): Promise<void> {
    const s = session.value;
    if (!s || panel.value === 'gradients') return;
    const view = panel.value;
    const r = await guarded(() => api.call('debug.pixel', { sessionId: s.sessionId, camera: camera.value, x, y, view, ...degree() }));
    if (r?.current) pixel.value = r.value;
  }

  async function computeGradients(api: LabApi): Promise<void> {
    const s = session.value;
    if (!s) return;
    const g = gradientSettings.value;
    const target = g.png ? { kind: 'png' as const, base64: g.png } : { kind: 'photo' as const };
    const r = await guarded(() => api.call('debug.gradients', { sessionId: s.sessionId, camera: camera.value, loss: g.loss, param: g.param, arrows: g.arrows, log: g.log, target, ...degree() }));
    if (r?.current) gradients.value = r.value;
    else if (!r) gradients.value = null;
  }

  function clearPixel(): void {
    pixel.value = null;
  }

  /** The inspector's report on a session's scene (debug.inspect). */
  const inspect = (api: LabApi, sessionId: string): Promise<LabResult<'debug.inspect'>> => api.call('debug.inspect', { sessionId });
  /** The trajectory and splat files the lab home holds for the source panel (debug.files). */
  const files = (api: LabApi): Promise<LabResult<'debug.files'>> => api.call('debug.files', {});

  return {
    inspect, files,
    session, camera, panel, image, pixel, gradients, gradientSettings, busy, error, progress, shDegree, free, freeText,
    listen, cancel, shown, highlighted, inspected, open, refresh, setPanel, setCamera, setShDegree, setFrame, setFree, pick, computeGradients, clearPixel,
  };
});
