// Per-pixel terms of PSNR and silhouette IoU, summed per image by metrics_reduce.
// render, photo: [B, N, 3] RGB; coverage: [B, N] render coverage (1 - T_final);
// mask: [B, N] photo mask as 0/1 floats. output: [B, 3, N] = squared error summed over RGB,
// intersection, union (coverage > 0.5 is the render's silhouette).

#include "constants.wgsl"

struct Params {
  pixels: u32,
  batch: u32,
  _pad0: u32,
  _pad1: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> render: array<f32>;
@group(0) @binding(2) var<storage, read> photo: array<f32>;
@group(0) @binding(3) var<storage, read> coverage: array<f32>;
@group(0) @binding(4) var<storage, read> mask: array<f32>;
@group(0) @binding(5) var<storage, read_write> output: array<f32>;

@compute @workgroup_size(METRICS_WORKGROUP)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  let b = gid.y;
  if (i >= params.pixels || b >= params.batch) {
    return;
  }
  let p = b * params.pixels + i;
  var sse = 0.0;
  for (var c = 0u; c < 3u; c++) {
    let d = render[p * 3u + c] - photo[p * 3u + c];
    sse += d * d;
  }
  let r = select(0.0, 1.0, coverage[p] > 0.5);
  let m = select(0.0, 1.0, mask[p] > 0.5);
  let base = b * 3u * params.pixels + i;
  output[base] = sse;
  output[base + params.pixels] = r * m;
  output[base + 2u * params.pixels] = max(r, m);
}
