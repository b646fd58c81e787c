// Stage 5: per-intersection gradients of the 2D quantities. One workgroup per tile, one
// invocation per pixel row of the tile (16 pixels), so each invocation sums its own 16 pixels
// and no barrier or atomic is needed. In: projected [N], ids, ranges, the forward's rgb [H, W, 3]
// and final_t [H, W], v_image [H, W, 4] = (dL/dR, dL/dG, dL/dB, dL/dcoverage).
// Out: partials [capacity, 16] (IsectGrad per intersection and row; zero where no pixel was reached).
// Method: replay the forward front to back (same operations, same stop), so T_i is exact; the
// colour behind Gaussian i is rest_i = C_final - sum_{j<=i} c_j alpha_j T_j, and
//   dC/dalpha_i = c_i T_i - rest_i / (1 - alpha_i),  dcoverage/dalpha_i = T_final / (1 - alpha_i).
// A clamped alpha (o G > 0.99) passes no gradient to opacity, conic or mean.
#include "common.wgsl"

@group(0) @binding(0) var<uniform> params: ViewParams;
@group(0) @binding(1) var<storage, read> projected: array<ProjectedSplat>;
@group(0) @binding(2) var<storage, read> ids: array<u32>;
@group(0) @binding(3) var<storage, read> ranges: array<vec2<u32>>;
@group(0) @binding(4) var<storage, read> fwd_rgb: array<f32>; // [H, W, 3]
@group(0) @binding(5) var<storage, read> fwd_t: array<f32>; // [H, W]
@group(0) @binding(6) var<storage, read> v_image: array<vec4<f32>>; // [H, W]
@group(0) @binding(7) var<storage, read_write> partials: array<IsectGrad>; // [capacity, 16]

@compute @workgroup_size(TILE_SIZE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) row: u32) {
  let py = wg.y * TILE_SIZE + row;
  let x0 = wg.x * TILE_SIZE;
  let range = ranges[wg.y * params.tiles_x + wg.x];

  // Per-pixel state of this row, [16].
  var t: array<f32, TILE_SIZE>;
  var acc: array<vec3<f32>, TILE_SIZE>; // sum of c_j alpha_j T_j so far
  var c_final: array<vec3<f32>, TILE_SIZE>;
  var t_final: array<f32, TILE_SIZE>;
  var v_rgb: array<vec3<f32>, TILE_SIZE>;
  var v_cov: array<f32, TILE_SIZE>;
  var live: array<bool, TILE_SIZE>;
  var n_live = 0u;
  for (var x = 0u; x < TILE_SIZE; x++) {
    t[x] = 1.0;
    acc[x] = vec3<f32>(0.0);
    live[x] = py < params.height && x0 + x < params.width;
    if (live[x]) {
      let p = py * params.width + x0 + x;
      c_final[x] = vec3<f32>(fwd_rgb[p * 3u], fwd_rgb[p * 3u + 1u], fwd_rgb[p * 3u + 2u]);
      t_final[x] = fwd_t[p];
      let v = v_image[p];
      v_rgb[x] = v.xyz;
      v_cov[x] = v.w;
      n_live++;
    }
  }

  for (var k = range.x; k < range.y; k++) {
    var out = IsectGrad();
    if (n_live > 0u) {
      let g = projected[ids[k]];
      let xy = g.xy_rel;
      let conic = g.conic;
      let color = g.color;
      var v_xy = vec2<f32>(0.0);
      var v_conic = vec3<f32>(0.0);
      var v_color = vec3<f32>(0.0);
      var v_opacity = 0.0;
      for (var x = 0u; x < TILE_SIZE; x++) {
        if (!live[x]) { continue; }
        let d = (vec2<f32>(f32(x0 + x) + 0.5, f32(py) + 0.5) - params.focal.zw) - xy; // see ProjectedSplat.xy_rel
        let q = conic.x * d.x * d.x + 2.0 * conic.y * d.x * d.y + conic.z * d.y * d.y;
        if (q > g.q_skip) { continue; }
        let gauss = exp(-0.5 * q);
        let raw = g.opacity * gauss;
        let alpha = min(ALPHA_MAX, raw);
        if (alpha < ALPHA_MIN) { continue; }
        let next_t = t[x] * (1.0 - alpha);
        if (next_t <= T_STOP) {
          live[x] = false;
          n_live--;
          continue;
        }
        let w = alpha * t[x];
        acc[x] += color * w;
        v_color += v_rgb[x] * w;
        let rest = c_final[x] - acc[x];
        let v_alpha = dot(v_rgb[x], color * t[x] - rest / (1.0 - alpha)) + v_cov[x] * t_final[x] / (1.0 - alpha);
        if (raw <= ALPHA_MAX) {
          let v_q = -0.5 * alpha * v_alpha;
          // q = d^T conic d with d = centre - mean: dq/dmean = -2 conic d.
          v_xy += -2.0 * v_q * vec2<f32>(conic.x * d.x + conic.y * d.y, conic.y * d.x + conic.z * d.y);
          v_conic += v_q * vec3<f32>(d.x * d.x, 2.0 * d.x * d.y, d.y * d.y);
          v_opacity += v_alpha * gauss;
        }
        t[x] = next_t;
      }
      out.v_xy = array<f32, 2>(v_xy.x, v_xy.y);
      out.v_conic = array<f32, 3>(v_conic.x, v_conic.y, v_conic.z);
      out.v_color = array<f32, 3>(v_color.x, v_color.y, v_color.z);
      out.v_opacity = v_opacity;
    }
    partials[k * TILE_SIZE + row] = out;
  }
}
