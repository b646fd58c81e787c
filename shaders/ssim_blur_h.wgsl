// SSIM stage 1: horizontal pass of the 11-tap Gaussian (sigma 1.5, truncate 3.5) with scipy
// 'reflect' borders, over the five moment maps x, y, x^2, y^2, xy, all three channels per
// invocation (one loop over taps instead of three).
// render (x), photo (y): [B, H, W, 3]; kernel: [11];
// moments4: [B, 3, H, W] vec4 = blurred (x, y, x^2, y^2); moments_xy: [B, 3, H, W] = blurred xy.
// Invariant: moments live in named registers, never in an indexed array.

#include "constants.wgsl"

struct Params {
  width: u32,
  height: u32,
  batch: u32,
  radius: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> render: array<f32>;
@group(0) @binding(2) var<storage, read> photo: array<f32>;
@group(0) @binding(3) var<storage, read> kernel: array<f32>;
@group(0) @binding(4) var<storage, read_write> moments4: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> moments_xy: array<f32>;

// scipy 'reflect' (d c b a | a b c d | d c b a), valid for |overhang| <= n.
fn reflect_index(i: i32, n: i32) -> i32 {
  var j = i;
  if (j < 0) {
    j = -j - 1;
  }
  if (j >= n) {
    j = 2 * n - 1 - j;
  }
  return clamp(j, 0, n - 1);
}

@compute @workgroup_size(METRICS_WORKGROUP)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n = params.width * params.height;
  let i = gid.x;
  let b = gid.y;
  if (i >= n || b >= params.batch) {
    return;
  }
  let x = i32(i % params.width);
  let row = b * n + (i / params.width) * params.width;
  let r = i32(params.radius);
  var sx = vec3<f32>(0.0);
  var sy = vec3<f32>(0.0);
  var sxx = vec3<f32>(0.0);
  var syy = vec3<f32>(0.0);
  var sxy = vec3<f32>(0.0);
  for (var t = -r; t <= r; t++) {
    let q = (row + u32(reflect_index(x + t, i32(params.width)))) * 3u;
    let w = vec3<f32>(kernel[u32(t + r)]);
    let xv = vec3<f32>(render[q], render[q + 1u], render[q + 2u]);
    let yv = vec3<f32>(photo[q], photo[q + 1u], photo[q + 2u]);
    sx = fma(w, xv, sx);
    sy = fma(w, yv, sy);
    sxx = fma(w, xv * xv, sxx);
    syy = fma(w, yv * yv, syy);
    sxy = fma(w, xv * yv, sxy);
  }
  let at = b * 3u * n + i;
  moments4[at] = vec4<f32>(sx.x, sy.x, sxx.x, syy.x);
  moments4[at + n] = vec4<f32>(sx.y, sy.y, sxx.y, syy.y);
  moments4[at + 2u * n] = vec4<f32>(sx.z, sy.z, sxx.z, syy.z);
  moments_xy[at] = sxy.x;
  moments_xy[at + n] = sxy.y;
  moments_xy[at + 2u * n] = sxy.z;
}
