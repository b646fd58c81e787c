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
}

/** Allocates a zeroed scene of `count` Gaussians with identity rotations. */
export function emptySplats(count: number, precision: 'f32' | 'f64' = 'f32'): Splats {
  const make = (n: number): Floats => (precision === 'f32' ? new Float32Array(n) : new Float64Array(n));
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
