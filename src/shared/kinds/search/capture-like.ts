// A capture-like potted plant as Gaussians (docs/TASKS.md, search section): the stand-in for a
// real captured object when no splat file is at hand. It has what reconstructions have and
// procedural surface splats lack: anisotropic Gaussians of log-normal size, jittered positions,
// varied opacity, colour noise, and a few low-opacity floaters, in a Y-up frame in file units.
// Input: a seed. Output: Splats (f32, no SH). Invariant: deterministic in the seed (mulberry32).
import { mulberry32 } from '../../math/random';
import { emptySplats, type Splats } from '../../scene/splats';

interface G {
  p: [number, number, number];
  s: [number, number, number];
  q: [number, number, number, number];
  c: [number, number, number];
  o: number;
}

/** Quaternion (w, x, y, z) turning +Z to the unit vector d, then spun about it by `spin` radians. */
function aim(d: [number, number, number], spin: number): [number, number, number, number] {
  const w0 = 1 + d[2];
  let q: [number, number, number, number] = w0 < 1e-9 ? [0, 1, 0, 0] : [w0, -d[1], d[0], 0];
  const l = Math.hypot(...q);
  q = [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
  const h = spin / 2, sw = Math.cos(h), sz = Math.sin(h);
  // q * (cos h, 0, 0, sin h): spin about the local Z first.
  return [q[0] * sw - q[3] * sz, q[1] * sw + q[2] * sz, q[2] * sw - q[1] * sz, q[3] * sw + q[0] * sz];
}

export function capturedPlant(seed = 1): Splats {
  const rng = mulberry32(seed);
  const gs: G[] = [];
  const jitter = (v: number) => v + rng.uniform(-1, 1) * 0.004;
  const size = (m: number) => m * Math.exp(rng.uniform(-0.5, 0.5));
  const tint = (c: [number, number, number], k: number): [number, number, number] => c.map((v) => Math.min(1, Math.max(0, v * (1 + rng.uniform(-k, k))))) as [number, number, number];
  // Working in Z-up metres, turned to Y-up at the end. Pot: a tapered terracotta shell.
  for (let i = 0; i < 1400; i++) {
    const t = rng.next(), a = rng.uniform(0, 2 * Math.PI);
    const r = 0.09 + 0.03 * t;
    const n: [number, number, number] = [Math.cos(a), Math.sin(a), -0.2];
    const l = Math.hypot(...n);
    gs.push({ p: [jitter(r * Math.cos(a)), jitter(r * Math.sin(a)), jitter(0.15 * t)], s: [size(0.008), size(0.008), 0.0015], q: aim([n[0] / l, n[1] / l, n[2] / l], rng.uniform(0, 6.3)), c: tint([0.72, 0.38, 0.22], 0.12), o: rng.uniform(0.6, 1) });
  }
  // Soil: a dark disc just below the rim.
  for (let i = 0; i < 300; i++) {
    const r = 0.115 * Math.sqrt(rng.next()), a = rng.uniform(0, 2 * Math.PI);
    gs.push({ p: [r * Math.cos(a), r * Math.sin(a), jitter(0.135)], s: [size(0.008), size(0.008), 0.002], q: aim([0, 0, 1], rng.uniform(0, 6.3)), c: tint([0.22, 0.15, 0.1], 0.2), o: rng.uniform(0.7, 1) });
  }
  // Leaves: long arching blades from the soil, each a row of flat elongated Gaussians.
  const leaves = 22;
  for (let k = 0; k < leaves; k++) {
    const a = (2 * Math.PI * k) / leaves + rng.uniform(-0.2, 0.2);
    const lean = rng.uniform(0.15, 0.6), len = rng.uniform(0.18, 0.32), green = tint([0.2, 0.55, 0.18], 0.25);
    for (let j = 0; j < 40; j++) {
      const u = j / 39;
      const out = Math.sin(lean) * len * u + 0.25 * len * u * u * lean;
      const up = Math.cos(lean) * len * u - 0.35 * len * u * u * lean;
      const width = 0.018 * Math.sin(Math.PI * Math.min(0.95, 0.1 + u));
      for (const side of [-1, 1]) {
        const p: [number, number, number] = [Math.cos(a) * out - side * Math.sin(a) * width * 0.5, Math.sin(a) * out + side * Math.cos(a) * width * 0.5, 0.135 + up];
        gs.push({ p: [jitter(p[0]), jitter(p[1]), jitter(p[2])], s: [size(0.01), size(0.004), 0.0012], q: aim([-Math.cos(a) * Math.cos(lean), -Math.sin(a) * Math.cos(lean), Math.sin(lean)], a + Math.PI / 2), c: tint(green, 0.15), o: rng.uniform(0.5, 1) });
      }
    }
  }
  // Floaters: the haze every reconstruction keeps around its object.
  for (let i = 0; i < 120; i++) {
    gs.push({ p: [rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), rng.uniform(0, 0.5)], s: [size(0.02), size(0.02), size(0.02)], q: [1, 0, 0, 0], c: tint([0.5, 0.5, 0.45], 0.3), o: rng.uniform(0.02, 0.08) });
  }
  const out = emptySplats(gs.length, 'f32');
  gs.forEach((g, i) => {
    // Z-up to Y-up (x, y, z) -> (x, z, -y), and the quaternion by the same quarter turn about X.
    out.means.set([g.p[0], g.p[2], -g.p[1]], i * 3);
    out.scales.set(g.s, i * 3);
    const r = Math.SQRT1_2;
    const [w, x, y, z] = g.q;
    out.quats.set([r * (w + x), r * (x - w), r * (y + z), r * (z - y)], i * 4);
    out.colors.set(g.c, i * 3);
    out.opacities[i] = g.o;
  });
  return out;
}
