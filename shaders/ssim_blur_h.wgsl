// SSIM stage 1: horizontal pass of the 11-tap Gaussian (sigma 1.5, truncate 3.5) with scipy
// 'reflect' borders, over the five moment maps x, y, x^2, y^2, xy of each channel.
// render (x), photo (y): [B, H, W, 3]; kernel: [11]; output: [B, 3, 5, H, W].

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
@group(0) @binding(4) var<storage, read_write> output: array<f32>;

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

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n = params.width * params.height;
  let i = gid.x;
  let bc = gid.y; // b * 3 + channel
  if (i >= n || bc >= params.batch * 3u) {
    return;
  }
  let b = bc / 3u;
  let c = bc % 3u;
  let x = i32(i % params.width);
  let row = (i / params.width) * params.width;
  let r = i32(params.radius);
  var m = array<f32, 5>(0.0, 0.0, 0.0, 0.0, 0.0);
  for (var t = -r; t <= r; t++) {
    let q = (b * n + row + u32(reflect_index(x + t, i32(params.width)))) * 3u + c;
    let w = kernel[u32(t + r)];
    let xv = render[q];
    let yv = photo[q];
    m[0] += w * xv;
    m[1] += w * yv;
    m[2] += w * xv * xv;
    m[3] += w * yv * yv;
    m[4] += w * xv * yv;
  }
  for (var k = 0u; k < 5u; k++) {
    output[(bc * 5u + k) * n + i] = m[k];
  }
}
