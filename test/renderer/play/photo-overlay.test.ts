// The outline overlay on a reference photo: a Gaussian's projected outline through the photo's
// camera sits around its projected centre at the half-alpha radius (fx * 1.18 sigma / depth).
import { describe, expect, it } from 'vitest';
import { orbitCamera } from '../../../src/shared/camera/orbit';
import { projectPoint } from '../../../src/shared/camera/triangulate';
import { outlinePolylines } from '../../../src/renderer/viewport/photo-overlay';
import { OUTLINE_SIGMAS } from '../../../src/renderer/viewport/outlines';

describe('photo outline overlay', () => {
  it('draws a round Gaussian as circles of the half-alpha radius around its projection', () => {
    const cam = orbitCamera({ azimuth: 30, elevation: 20, width: 256, height: 256 });
    const r = { id: 0, pos: [0.2, -0.1, 0.3] as [number, number, number], scale: [0.1, 0.1, 0.1] as [number, number, number], quat: [1, 0, 0, 0] as [number, number, number, number], color: [1, 0, 0] as [number, number, number], opacity: 1 };
    const c = projectPoint(cam, r.pos);
    if (!c) throw new Error('behind the camera');
    const m = cam.world_to_camera;
    const depth = m[8] * r.pos[0] + m[9] * r.pos[1] + m[10] * r.pos[2] + m[11];
    const expected = (cam.fx * OUTLINE_SIGMAS * 0.1) / depth;
    const lines = outlinePolylines(r, cam);
    expect(lines).toHaveLength(3);
    const far = Math.max(...lines.flat().map((p) => Math.hypot(p.u - c.u, p.v - c.v)));
    // The widest circle reaches the silhouette radius (perspective adds a little).
    expect(far).toBeGreaterThan(expected * 0.97);
    expect(far).toBeLessThan(expected * 1.06);
  });
});
