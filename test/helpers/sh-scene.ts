// A small generated capture with view-dependent colour for the debugger's tests: a column of
// Gaussians along the file's -y axis (so it stands up only when -y is taken as up), each with
// strong SH bands 1..degree, and its bytes as an INRIA .ply with no up comment (the reader then
// only guesses the axes). Deterministic (seeded).
import { encodePlyHeader, encodePlyRows } from '../../src/shared/formats/ply-write';
import { SH_REST_PER_CHANNEL } from '../../src/shared/formats/types';
import { emptySplats, type Splats } from '../../src/shared/scene/splats';

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

export function shColumn(n: number, degree: 0 | 1 | 2 | 3, seed = 1): Splats {
  const r = rng(seed);
  const s = emptySplats(n);
  for (let i = 0; i < n; i++) {
    const t = n > 1 ? i / (n - 1) : 0.5;
    s.means.set([(r() - 0.5) * 0.3, 0.9 - 1.8 * t, (r() - 0.5) * 0.3], i * 3);
    s.scales.set([0.09 + 0.05 * r(), 0.09 + 0.05 * r(), 0.09 + 0.05 * r()], i * 3);
    s.quats.set([1, 0, 0, 0], i * 4);
    s.colors.set([0.2 + 0.6 * t, 0.5, 0.8 - 0.6 * t], i * 3);
    s.opacities[i] = 0.8;
  }
  if (degree !== 0) {
    const k = SH_REST_PER_CHANNEL[degree];
    const rest = new Float32Array(n * k * 3);
    for (let j = 0; j < rest.length; j++) rest[j] = (r() - 0.5) * 1.2;
    s.sh = { degree, rest };
  }
  return s;
}

/** The scene as INRIA .ply bytes (no up comment). */
export function plyBytes(s: Splats): Uint8Array {
  const head = encodePlyHeader(s);
  const rows = encodePlyRows(s, 0, s.count);
  const out = new Uint8Array(head.length + rows.length);
  out.set(head);
  out.set(rows, head.length);
  return out;
}
