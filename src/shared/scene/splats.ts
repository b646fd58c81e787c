// Packed Gaussian scene: the structure-of-arrays form every rasterizer stage consumes.
// Inputs: none (types and small helpers). Invariant: every array holds exactly `count` rows of
// its stated width; quaternions are unit length (w, x, y, z); scales are standard deviations
// along the Gaussian's own axes (not logs); colours and opacities are plain numbers in [0, 1].

/** Float storage: Float32Array for GPU uploads, Float64Array where the CPU reference needs precision. */
export type Floats = Float32Array | Float64Array;

export interface Splats {
  count: number;
  means: Floats; // [N, 3] world position
  scales: Floats; // [N, 3] standard deviations
  quats: Floats; // [N, 4] unit quaternion (w, x, y, z)
  colors: Floats; // [N, 3] RGB in [0, 1]
  opacities: Floats; // [N]
  /**
   * View-dependent colour (real captures; docs/DESIGN.md section 10). Absent means flat colour
   * (every SplatBench scene). With `sh`, `colors` holds the degree-0 term as 0.5 + SH_C0 * f_dc
   * (it may leave [0, 1]; the rasterizer clamps the evaluated colour at 0, as 3DGS does) and
   * `rest` holds bands 1..degree: K = (degree + 1)^2 - 1 coefficients per channel, laid out
   * [N, K, 3] (rest[(i * K + k) * 3 + c]).
   */
  sh?: { degree: 1 | 2 | 3; rest: Floats };
}

/** Allocates a zeroed scene of `count` Gaussians with identity rotations. */
/**
 * A scene of `count` Gaussians (identity rotations, zeros elsewhere). `shared`: every array over a
 * SharedArrayBuffer where the runtime has one, so worker threads (the tile rasterizer's) read the
 * scene itself instead of a copy.
 */
export function emptySplats(count: number, precision: 'f32' | 'f64' = 'f32', shared = false): Splats {
  const share = shared && typeof SharedArrayBuffer === 'function';
  const make = (n: number): Floats => {
    const bytes = n * (precision === 'f32' ? 4 : 8);
    if (share) return precision === 'f32' ? new Float32Array(new SharedArrayBuffer(bytes)) : new Float64Array(new SharedArrayBuffer(bytes));
    return precision === 'f32' ? new Float32Array(n) : new Float64Array(n);
  };
  const quats = make(count * 4);
  for (let i = 0; i < count; i++) quats[i * 4] = 1;
  return {
    count,
    means: make(count * 3),
    scales: make(count * 3),
    quats,
    colors: make(count * 3),
    opacities: make(count),
  };
}
