// Schema and handler limits agree (issue #29 item 11): the largest debugger image the schema of
// debug.view takes is one the handler renders, one pixel more is refused by the schema itself;
// numbers no tool can use (NaN over IPC, Infinity from JSON's 1e400, 1e308) are bad_request
// before any handler runs.
import { describe, expect, it } from 'vitest';
import { resolveCamera } from '../../../src/main/debug/cameras';
import { dispatchCall } from '../../../src/main/services/dispatch';
import { DebugCameraSchema, MAX_DEBUG_SIDE } from '../../../src/shared/api/debug';
import { fakeServices } from '../services/fixtures';

describe('debug.view limits', () => {
  it('renders every orbit size the schema allows and the schema refuses the rest', () => {
    const max = DebugCameraSchema.parse({ kind: 'orbit', azimuth: 30, elevation: 10, width: MAX_DEBUG_SIDE, height: MAX_DEBUG_SIDE });
    expect(resolveCamera(max, null).camera.width).toBe(MAX_DEBUG_SIDE);
    for (const side of [{ width: MAX_DEBUG_SIDE + 1 }, { height: MAX_DEBUG_SIDE + 1 }, { width: 2048, height: 2048 }]) {
      expect(DebugCameraSchema.safeParse({ kind: 'orbit', azimuth: 0, elevation: 0, ...side }).success).toBe(false);
    }
  });
});

describe('numbers no tool can use', () => {
  it('are bad_request before the handler runs', async () => {
    const services = fakeServices();
    let ran = 0;
    const handlers = { ...services.handlers, 'episode.step': async () => { ran += 1; throw new Error('ran'); } };
    for (const azimuth of [Number.NaN, Infinity, 1e308, -1e300]) {
      const out = await dispatchCall(handlers, 'episode.step', { episodeId: 'e', tool: 'render_angle', args: { azimuth, elevation: 0 } });
      expect(out.ok).toBe(false);
      if (!out.ok) expect(out.code, String(azimuth)).toBe('bad_request');
    }
    const nested = await dispatchCall(handlers, 'debug.view', { sessionId: 's', camera: { kind: 'orbit', azimuth: Number.NaN, elevation: 0 }, view: 'rgb' });
    expect(nested.ok).toBe(false);
    expect(ran).toBe(0);
  });
});
