// Stage 4: composite each 16x16 tile front to back over white; one workgroup per tile, one
// invocation per pixel. In: projected [N], ids and ranges from tile_bin. Out: rgb [H, W, 3],
// alpha [H, W] (= 1 - T_final), final_t [H, W] (T_final, kept for the backward pass).
// Invariant: per pixel, the same sequence of float operations as the dense definition over the
// depth-sorted Gaussians whose box touches the tile (all others have alpha < 1/255 there):
// alpha = min(0.99, o exp(-q/2)), skip alpha < 1/255, stop before T (1 - alpha) <= 1e-4.
// No shared memory and no barriers: every invocation reads the same Gaussian at the same time
// (cache broadcast), and software rasterizers run barrier-free workgroups far faster.
#include "common.wgsl"

@group(0) @binding(0) var<uniform> params: ViewParams;
@group(0) @binding(1) var<storage, read> projected: array<ProjectedSplat>;
@group(0) @binding(2) var<storage, read> ids: array<u32>;
@group(0) @binding(3) var<storage, read> ranges: array<vec2<u32>>;
@group(0) @binding(4) var<storage, read_write> out_rgb: array<f32>; // [H, W, 3]
@group(0) @binding(5) var<storage, read_write> out_alpha: array<f32>; // [H, W]
@group(0) @binding(6) var<storage, read_write> final_t: array<f32>; // [H, W]

@compute @workgroup_size(TILE_SIZE, TILE_SIZE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let px = wg.x * TILE_SIZE + lid.x;
  let py = wg.y * TILE_SIZE + lid.y;
  if (px >= params.width || py >= params.height) { return; }
  let centre = vec2<f32>(f32(px) + 0.5, f32(py) + 0.5) - params.focal.zw; // relative to the principal point
  let range = ranges[wg.y * params.tiles_x + wg.x];

  var t = 1.0;
  var c = vec3<f32>(0.0);
  for (var k = range.x; k < range.y; k++) {
    let g = projected[ids[k]];
    let d = centre - g.xy_rel;
    let q = g.conic.x * d.x * d.x + 2.0 * g.conic.y * d.x * d.y + g.conic.z * d.y * d.y;
    if (q > g.q_skip) { continue; }
    let alpha = min(ALPHA_MAX, g.opacity * exp(-0.5 * q));
    if (alpha < ALPHA_MIN) { continue; }
    let next_t = t * (1.0 - alpha);
    if (next_t <= T_STOP) { break; }
    c += g.color * (alpha * t);
    t = next_t;
  }

  let p = py * params.width + px;
  out_rgb[p * 3u] = c.x + t;
  out_rgb[p * 3u + 1u] = c.y + t;
  out_rgb[p * 3u + 2u] = c.z + t;
  out_alpha[p] = 1.0 - t;
  final_t[p] = t;
}
