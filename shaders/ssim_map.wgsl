// SSIM stage 2: vertical Gaussian pass ('reflect' borders) of the five moment maps and the
// SSIM formula (K1 0.01, K2 0.03, data range 1, population covariances) at interior pixels.
// moments: [B, 3, 5, H, W] from ssim_blur_h; kernel: [11];
// output: [B, 3, H - 2 radius, W - 2 radius], the cropped SSIM map summed by metrics_reduce.

struct Params {
  width: u32,
  height: u32,
  batch: u32,
  radius: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> moments: array<f32>;
@group(0) @binding(2) var<storage, read> kernel: array<f32>;
@group(0) @binding(3) var<storage, read_write> output: array<f32>;

const C1: f32 = 0.0001; // (0.01 * 1)^2
const C2: f32 = 0.0009; // (0.03 * 1)^2

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let r = params.radius;
  let cw = params.width - 2u * r;
  let ch = params.height - 2u * r;
  let i = gid.x;
  let bc = gid.y;
  if (i >= cw * ch || bc >= params.batch * 3u) {
    return;
  }
  // Interior pixels only, so the vertical taps never leave the image.
  let x = i % cw + r;
  let y = i / cw + r;
  let n = params.width * params.height;
  var m = array<f32, 5>(0.0, 0.0, 0.0, 0.0, 0.0);
  for (var t = 0u; t <= 2u * r; t++) {
    let w = kernel[t];
    let at = (y + t - r) * params.width + x;
    for (var k = 0u; k < 5u; k++) {
      m[k] += w * moments[(bc * 5u + k) * n + at];
    }
  }
  let ux = m[0];
  let uy = m[1];
  let vx = m[2] - ux * ux;
  let vy = m[3] - uy * uy;
  let vxy = m[4] - ux * uy;
  let s = ((2.0 * ux * uy + C1) * (2.0 * vxy + C2)) / ((ux * ux + uy * uy + C1) * (vx + vy + C2));
  output[bc * cw * ch + i] = s;
}
