// LPIPS input stage: RGB in [0, 1] -> ScalingLayer input (2v - 1 - shift) / scale, channel-major,
// written inside a zero border of `pad` pixels so the first conv needs no bounds checks.
// rgb: [B, H, W, 3]; out: [B, 3, H + 2 pad, W + 2 pad]. The border is never written (stays 0).

#include "constants.wgsl"

struct Params {
  width: u32,
  height: u32,
  batch: u32,
  pad: u32,
  shift: vec4<f32>, // xyz used
  scale: vec4<f32>, // xyz used
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> rgb: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(METRICS_WORKGROUP)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n = params.width * params.height;
  let i = gid.x;
  let b = gid.y;
  if (i >= n || b >= params.batch) {
    return;
  }
  let x = i % params.width;
  let y = i / params.width;
  let pw = params.width + 2u * params.pad;
  let ph = params.height + 2u * params.pad;
  let src = (b * n + i) * 3u;
  let v = (2.0 * vec3<f32>(rgb[src], rgb[src + 1u], rgb[src + 2u]) - 1.0 - params.shift.xyz) / params.scale.xyz;
  let plane = ph * pw;
  let at = (b * 3u * ph + y + params.pad) * pw + x + params.pad;
  out[at] = v.x;
  out[at + plane] = v.y;
  out[at + 2u * plane] = v.z;
}
