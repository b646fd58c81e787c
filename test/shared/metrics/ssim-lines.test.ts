// SSIM's wasm SIMD line passes against the JS reference (ssim-lines.ts, issue 40 item 1): every
// output bit for bit, on seeded random planes with odd and even counts (the vector pairs and the
// scalar tail), and SsimTarget's value and gradient, whole and in bands, the same either way.
// A tap taken in another order changes the last bits of some outputs, so these fail then.
import { describe, expect, it } from 'vitest';
import { jsLines, wasmLines, type Lines11 } from '../../../src/shared/metrics/ssim-lines';
import { setSsimWasm, SsimTarget } from '../../../src/shared/metrics/ssim-target';
import { ssimMapSum } from '../../../src/shared/metrics/ssim';
import { Random } from '../../../src/shared/math/random';

/** Seeded values spread over magnitudes and signs (the sums' rounding depends on the order). */
function fill(a: Float64Array, rng: Random): void {
  for (let i = 0; i < a.length; i++) a[i] = (rng.next() - 0.3) * 10 ** Math.floor(rng.next() * 6 - 3);
}

/** The first index where two arrays differ as bits (Object.is), -1 when none does. */
function firstDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

describe('SSIM line passes', () => {
  it.each([
    [37, 29],
    [64, 40],
    [11, 23],
  ])('are bit for bit the JS passes on %ix%i planes', (w, h) => {
    const n = w * h;
    const wasm = wasmLines(w, 2 * n);
    // WebAssembly with SIMD is part of every runtime the lab supports: its absence fails here.
    expect(wasm).not.toBeNull();
    if (!wasm) return;
    const [a, out] = [wasm.plane(n), wasm.plane(n)];
    if (!a || !out) throw new Error('planes do not fit');
    const rng = new Random(w * 31 + h);
    fill(a, rng);
    const js = jsLines(w);
    const names: (keyof Lines11)[] = ['hsym', 'vsym', 'vseq'];
    let compared = 0;
    for (const name of names) {
      const down = name !== 'hsym';
      // Every window in range: 5 taps of margin each side along the tap direction.
      for (const count of [1, 2, w - 10, w - 11, down ? w : w - 10]) {
        const rows = down ? h - 10 : h - 2;
        const c = down ? 5 * w : w + 5;
        const o = 3;
        fill(out, rng);
        const expected = Float64Array.from(out);
        js[name](a, c, expected, o, count, rows);
        wasm.lines[name](a, c, out, o, count, rows);
        expect(firstDiff(out, expected)).toBe(-1);
        compared += count * rows;
      }
    }
    expect(compared).toBeGreaterThan(0);
    // The planes the wasm passes do not own run through the JS passes (the same floats).
    const plain = Float64Array.from(a);
    const viaJs = new Float64Array(n);
    const ref = new Float64Array(n);
    wasm.lines.hsym(plain, w + 5, viaJs, 0, w - 10, h - 2);
    js.hsym(plain, w + 5, ref, 0, w - 10, h - 2);
    expect(firstDiff(viaJs, ref)).toBe(-1);
  });

  it.each([
    [27, 19],
    [30, 16],
  ])('sum the SSIM map and write its gradients as ssimMapSum does on %ix%i planes', (w, h) => {
    const n = w * h;
    const wasm = wasmLines(w, 16 * n);
    expect(wasm).not.toBeNull();
    if (!wasm) return;
    const rng = new Random(w + 1000 * h);
    const planes = Array.from({ length: 8 }, () => wasm.plane(n) ?? new Float64Array(0));
    const [ux, uy, uxx, uyy, uxy] = planes;
    // Moments of plausible images: means in [0, 1], second moments above the squared means.
    for (let i = 0; i < n; i++) {
      ux[i] = rng.next();
      uy[i] = rng.next();
      uxx[i] = ux[i] * ux[i] + 0.05 * rng.next();
      uyy[i] = uy[i] * uy[i] + 0.05 * rng.next();
      uxy[i] = ux[i] * uy[i] + 0.04 * (rng.next() - 0.5);
    }
    const m = { ux, uy, uxx, uyy, uxy };
    const g = { ux: planes[5], uxx: planes[6], uxy: planes[7], scale: -0.013 };
    const ref = { ux: new Float64Array(n), uxx: new Float64Array(n), uxy: new Float64Array(n), scale: -0.013 };
    for (const rows of [undefined, [3, 9], [7, h - 2]] as const) {
      expect(Object.is(wasm.mapSum(m, w, h, g, rows), ssimMapSum(m, w, h, ref, rows))).toBe(true);
      expect(Object.is(wasm.mapSum(m, w, h, undefined, rows), ssimMapSum(m, w, h, undefined, rows))).toBe(true);
      for (const k of ['ux', 'uxx', 'uxy'] as const) expect(firstDiff(g[k], ref[k])).toBe(-1);
    }
    expect(ref.uxy.some((v) => v !== 0)).toBe(true);
  });

  it('give SsimTarget the same value and gradient as the JS passes, whole and in bands', () => {
    const [w, h] = [45, 38];
    const rng = new Random(5);
    const photo = { width: w, height: h, data: Float32Array.from({ length: w * h * 3 }, () => rng.next()) };
    const render = Float64Array.from(photo.data, (v) => 0.7 * v + 0.3 * rng.next());
    const run = (wasm: boolean): { value: number; grad: Float64Array; bands: Float64Array; sums: number[] } => {
      setSsimWasm(wasm);
      try {
        const t = new SsimTarget(photo);
        const grad = new Float64Array(w * h * 3);
        const value = t.evaluate(render, grad, 0.37);
        const bands = new Float64Array(w * h * 3);
        const s = new Float64Array(3);
        const sums: number[] = [];
        for (const [y0, y1] of [[0, 12], [12, 30], [30, h]]) {
          t.evaluateRows(render, y0, y1, s, bands, 0.37);
          sums.push(...s);
        }
        return { value, grad, bands, sums };
      } finally {
        setSsimWasm(true);
      }
    };
    const [js, wasm] = [run(false), run(true)];
    expect(Object.is(wasm.value, js.value)).toBe(true);
    expect(firstDiff(wasm.grad, js.grad)).toBe(-1);
    expect(firstDiff(wasm.bands, js.bands)).toBe(-1);
    expect(firstDiff(wasm.sums, js.sums)).toBe(-1);
    expect(js.grad.some((v) => v !== 0)).toBe(true);
  });
});
