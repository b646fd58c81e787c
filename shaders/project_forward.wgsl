// Stage 1: project every Gaussian. In: params, splats [N]. Out: projected [N], control.visible.
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
  let o = s.opacity;
  if (!(m.det > 0.0) || !(o * 255.0 > 1.0)) { write_culled(i); return; }
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
  p.conic = vec3<f32>(m.cov2d.z / m.det, -m.cov2d.y / m.det, m.cov2d.x / m.det);
  p.depth = m.t.z;
  p.opacity = o;
  p.color = vec3<f32>(s.color[0], s.color[1], s.color[2]);
  p.radii = vec2<i32>(i32(rx), i32(ry));
  p.q_skip = alpha_skip_bound(q_max);
  projected[i] = p;
  atomicAdd(&control.visible, 1u);
}
