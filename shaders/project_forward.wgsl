// Stage 1: project every Gaussian. In: params, splats [N], sh [N, K, 3]. Out: projected [N] (colour
// evaluated from the camera, opacity after the antialiasing compensation when on), control.visible.
// Invariant: a Gaussian is culled (radii 0, empty box) exactly when the CPU reference's
// projectForward culls it: z < 0.01, det <= 0, 255 * opacity <= 1, or a box off the image.
#include "common.wgsl"

struct ControlAtomic {
  isect_total: u32,
  visible: atomic<u32>,
}

@group(0) @binding(0) var<uniform> params: ViewParams;
@group(0) @binding(1) var<storage, read> splats: array<Splat>;
@group(0) @binding(2) var<storage, read_write> projected: array<ProjectedSplat>;
@group(0) @binding(3) var<storage, read_write> control: ControlAtomic;
@group(0) @binding(4) var<storage, read> sh: array<f32>; // [N, sh_stride, 3] SH bands 1..; unread when flat

// 3DGS's SH constants (src/shared/raster/cpu/sh.ts).
const SH_C1: f32 = 0.4886025119029199;
const SH_C2 = array<f32, 5>(1.0925484305920792, -1.0925484305920792, 0.31539156525252005, -1.0925484305920792, 0.5462742152960396);
const SH_C3 = array<f32, 7>(-0.5900435899266435, 2.890611442640554, -0.4570457994644658, 0.3731763325901154, -0.4570457994644658, 1.445305721320277, -0.5900435899266435);

fn sh_coef(i: u32, k: u32) -> vec3<f32> {
  let o = (i * params.sh_stride + k) * 3u;
  return vec3<f32>(sh[o], sh[o + 1u], sh[o + 2u]);
}

// Colour seen from the camera: the stored colour when flat (unclamped, as the CPU reference);
// with SH, max(0, colour + sum of bands 1..sh_degree at d = normalize(mean - eye)).
fn view_color(i: u32, s: Splat) -> vec3<f32> {
  var c = vec3<f32>(s.color[0], s.color[1], s.color[2]);
  if ((params.flags & FLAG_SH) == 0u) { return c; }
  var d = splat_mean(s) - params.eye.xyz;
  let len = length(d);
  if (len > 0.0) { d = d / len; }
  let x = d.x;
  let y = d.y;
  let z = d.z;
  if (params.sh_degree >= 1u) {
    c += -SH_C1 * y * sh_coef(i, 0u) + SH_C1 * z * sh_coef(i, 1u) - SH_C1 * x * sh_coef(i, 2u);
  }
  if (params.sh_degree >= 2u) {
    let xx = x * x;
    let yy = y * y;
    let zz = z * z;
    c += SH_C2[0] * x * y * sh_coef(i, 3u) + SH_C2[1] * y * z * sh_coef(i, 4u) + SH_C2[2] * (2.0 * zz - xx - yy) * sh_coef(i, 5u)
      + SH_C2[3] * x * z * sh_coef(i, 6u) + SH_C2[4] * (xx - yy) * sh_coef(i, 7u);
    if (params.sh_degree >= 3u) {
      c += SH_C3[0] * y * (3.0 * xx - yy) * sh_coef(i, 8u) + SH_C3[1] * x * y * z * sh_coef(i, 9u)
        + SH_C3[2] * y * (4.0 * zz - xx - yy) * sh_coef(i, 10u) + SH_C3[3] * z * (2.0 * zz - 3.0 * xx - 3.0 * yy) * sh_coef(i, 11u)
        + SH_C3[4] * x * (4.0 * zz - xx - yy) * sh_coef(i, 12u) + SH_C3[5] * z * (xx - yy) * sh_coef(i, 13u)
        + SH_C3[6] * x * (xx - 3.0 * yy) * sh_coef(i, 14u);
    }
  }
  return max(c, vec3<f32>(0.0));
}

fn write_culled(i: u32) {
  projected[i] = ProjectedSplat();
}

@compute @workgroup_size(RASTER_WORKGROUP)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= params.count) { return; }
  let s = splats[i];
  let t = to_camera(params, splat_mean(s));
  if (!(t.z >= NEAR_PLANE)) { write_culled(i); return; }
  let m = projection_math(params, s);
  if (!(m.det > 0.0)) { write_culled(i); return; }
  var o = s.opacity;
  if ((params.flags & FLAG_ANTIALIASED) != 0u) {
    // mip-splatting compensation: sqrt(det(cov2d - 0.3 I) / det(cov2d)).
    let det_raw = (m.cov2d.x - COV2D_DILATION) * (m.cov2d.z - COV2D_DILATION) - m.cov2d.y * m.cov2d.y;
    o = o * sqrt(max(0.0, det_raw / m.det));
  }
  if (!(o * 255.0 > 1.0)) { write_culled(i); return; }
  let q_max = 2.0 * log(255.0 * o);
  let rx = min(ceil(sqrt(q_max * m.cov2d.x)), RADIUS_CAP);
  let ry = min(ceil(sqrt(q_max * m.cov2d.z)), RADIUS_CAP);
  let w = f32(params.width);
  let h = f32(params.height);
  if (!(rx > 0.0 && ry > 0.0) || m.xy.x + rx <= 0.0 || m.xy.x - rx >= w || m.xy.y + ry <= 0.0 || m.xy.y - ry >= h) {
    write_culled(i);
    return;
  }
  var p: ProjectedSplat;
  p.xy = m.xy;
  p.xy_rel = vec2<f32>(params.focal.x * (m.t.x / m.t.z), params.focal.y * (m.t.y / m.t.z));
  p.conic = vec3<f32>(m.cov2d.z / m.det, -m.cov2d.y / m.det, m.cov2d.x / m.det);
  p.depth = m.t.z;
  p.opacity = o;
  p.color = view_color(i, s);
  p.radii = vec2<i32>(i32(rx), i32(ry));
  p.q_skip = alpha_skip_bound(q_max);
  projected[i] = p;
  atomicAdd(&control.visible, 1u);
}
