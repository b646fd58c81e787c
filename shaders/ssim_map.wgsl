// SSIM stage 2: vertical Gaussian pass of the five moment maps and the SSIM formula (K1 0.01,
// K2 0.03, data range 1, population covariances) at interior pixels only, so the vertical taps
// never leave the image (the border is cropped before the mean anyway); the three channels'
// values are summed per pixel.
// moments4: [B, 3, H, W] vec4 (x, y, x^2, y^2); moments_xy: [B, 3, H, W]; kernel: [11];
// output: [B, H - 2 radius, W - 2 radius] = sum over channels of SSIM, summed by metrics_reduce.

#include "constants.wgsl"

struct Params {
  width: u32,
  height: u32,
  batch: u32,
  radius: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> moments4: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> moments_xy: array<f32>;
@group(0) @binding(3) var<storage, read> kernel: array<f32>;
@group(0) @binding(4) var<storage, read_write> output: array<f32>;

const C1: f32 = 0.0001; // (0.01 * 1)^2
const C2: f32 = 0.0009; // (0.03 * 1)^2

fn ssim_of(m: vec4<f32>, mxy: f32) -> f32 {
  let ux = m.x;
  let uy = m.y;
  let vx = m.z - ux * ux;
  let vy = m.w - uy * uy;
  let vxy = mxy - ux * uy;
  return ((2.0 * ux * uy + C1) * (2.0 * vxy + C2)) / ((ux * ux + uy * uy + C1) * (vx + vy + C2));
}

@compute @workgroup_size(METRICS_WORKGROUP)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let r = params.radius;
  let cw = params.width - 2u * r;
  let ch = params.height - 2u * r;
  let i = gid.x;
  let b = gid.y;
  if (i >= cw * ch || b >= params.batch) {
    return;
  }
  let n = params.width * params.height;
  let x = i % cw + r;
  let y = i / cw + r;
  var m0 = vec4<f32>(0.0);
  var m1 = vec4<f32>(0.0);
  var m2 = vec4<f32>(0.0);
  var mxy = vec3<f32>(0.0);
  for (var t = 0u; t <= 2u * r; t++) {
    let w = kernel[t];
    let at = b * 3u * n + (y + t - r) * params.width + x;
    m0 = fma(vec4<f32>(w), moments4[at], m0);
    m1 = fma(vec4<f32>(w), moments4[at + n], m1);
    m2 = fma(vec4<f32>(w), moments4[at + 2u * n], m2);
    mxy = fma(vec3<f32>(w), vec3<f32>(moments_xy[at], moments_xy[at + n], moments_xy[at + 2u * n]), mxy);
  }
  output[b * cw * ch + i] = ssim_of(m0, mxy.x) + ssim_of(m1, mxy.y) + ssim_of(m2, mxy.z);
}
