// What a participant's page runs on (issue 24 item 6): user agent, screen and window size, pixel
// ratio, the pointer types seen so far on this page, and the WebGPU adapter (vendor and
// architecture, or null). Sent once per session screen (study.session.meta); main adds the
// lab's version. Invariant: never blocks the session (a failure is ignored).
import type { SessionMeta } from '../../shared/api/study';

const seen = new Set<'mouse' | 'pen' | 'touch'>();
if (typeof window !== 'undefined') {
  window.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' || e.pointerType === 'pen' || e.pointerType === 'touch') seen.add(e.pointerType);
  }, { capture: true, passive: true });
}

async function adapterName(): Promise<string | null> {
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<{ info?: { vendor?: string; architecture?: string } } | null> } }).gpu;
  if (!gpu) return null;
  try {
    const a = await gpu.requestAdapter();
    if (!a) return null;
    return `${a.info?.vendor ?? 'unknown'} ${a.info?.architecture ?? ''}`.trim().slice(0, 200);
  } catch {
    return null;
  }
}

export async function collectSessionMeta(): Promise<SessionMeta> {
  return {
    userAgent: navigator.userAgent.slice(0, 500),
    screen: [Math.round(screen.width), Math.round(screen.height)],
    window: [Math.round(window.innerWidth), Math.round(window.innerHeight)],
    pixelRatio: Math.min(16, window.devicePixelRatio || 1),
    pointerTypes: [...seen],
    webgpu: await adapterName(),
  };
}
