// Stage 6: per-Gaussian gradients. Sums a Gaussian's intersection partials (tiles of its box in
// row-major order, 16 rows each, so the sum is deterministic), then chains through the projection:
// conic = inverse(cov2d), cov2d = J W Sigma W^T J^T + 0.3 I, Sigma = (R S)(R S)^T, R = R(q / |q|),
// mean2d = (fx x/z + cx, fy y/z + cy). In: splats, projected, ranks, ids, ranges, partials.
// Out: grads [N] in the Splat layout (v_mean, v_scale, v_quat w.r.t. the raw stored quaternion,
// v_color, v_opacity on the stored opacity: antialiased, through the compensation too). Culled
// Gaussians get zeros. A clamped x/z (y/z) passes no gradient to x (y)
// through the Jacobian, only through its 1/z factor (see clamped_column_vjp).
#include "common.wgsl"

@group(0) @binding(0) var<uniform> params: ViewParams;
@group(0) @binding(1) var<storage, read> splats: array<Splat>;
@group(0) @binding(2) var<storage, read> projected: array<ProjectedSplat>;
@group(0) @binding(3) var<storage, read> ranks: array<u32>; // [N]
@group(0) @binding(4) var<storage, read> ids: array<u32>;
@group(0) @binding(5) var<storage, read> ranges: array<vec2<u32>>;
@group(0) @binding(6) var<storage, read> partials: array<IsectGrad>; // [capacity, 16]
@group(0) @binding(7) var<storage, read_write> grads: array<Splat>;

// Position of Gaussian i in a tile's list (sorted by depth rank), or NOT_FOUND.
fn find_in_tile(range: vec2<u32>, i: u32, rank: u32) -> u32 {
  var lo = range.x;
  var hi = range.y;
  while (lo < hi) {
    let mid = (lo + hi) / 2u;
    if (ranks[ids[mid]] < rank) { lo = mid + 1u; } else { hi = mid; }
  }
  if (lo < range.y && ids[lo] == i) { return lo; }
  return NOT_FOUND;
}

// dL/dq for R = quat_to_mat(q) given V = dL/dR (V[c][r] is row r, column c).
fn quat_vjp(q: vec4<f32>, v: mat3x3<f32>) -> vec4<f32> {
  let w = q.x;
  let x = q.y;
  let y = q.z;
  let z = q.w;
  let v00 = v[0][0]; let v01 = v[1][0]; let v02 = v[2][0];
  let v10 = v[0][1]; let v11 = v[1][1]; let v12 = v[2][1];
  let v20 = v[0][2]; let v21 = v[1][2]; let v22 = v[2][2];
  return 2.0 * vec4<f32>(
    -z * v01 + y * v02 + z * v10 - x * v12 - y * v20 + x * v21,
    y * v01 + z * v02 + y * v10 - 2.0 * x * v11 - w * v12 + z * v20 + w * v21 - 2.0 * x * v22,
    -2.0 * y * v00 + x * v01 + w * v02 + x * v10 + z * v12 - w * v20 + z * v21 - 2.0 * y * v22,
    -2.0 * z * v00 - w * v01 + x * v02 + w * v10 - 2.0 * z * v11 + y * v12 + x * v20 + y * v21,
  );
}

// Gradient on t through J's third-column entry of `axis`: J = -f u_c / z with u_c = clamp(t / z).
// Unclamped it is -f t_axis / z^2 (depends on t_axis and z); clamped, u_c is a constant and only
// the 1 / z factor varies (the CPU reference's exact derivative).
fn clamped_column_vjp(axis: u32, jac: Jacobian, t: vec3<f32>, f: f32, v: f32) -> vec3<f32> {
  let j = jac.j[2][axis];
  if (jac.clamped[axis]) { return vec3<f32>(0.0, 0.0, -j / t.z * v); }
  var out = vec3<f32>(0.0, 0.0, 2.0 * f * t[axis] / (t.z * t.z * t.z) * v);
  out[axis] = -f / (t.z * t.z) * v;
  return out;
}

@compute @workgroup_size(RASTER_WORKGROUP)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= params.count) { return; }
  let p = projected[i];
  var out: Splat;
  let radii = p.radii;
  if (radii.x <= 0) {
    grads[i] = out;
    return;
  }

  // Sum the partials of this Gaussian's intersections.
  var v_xy = vec2<f32>(0.0);
  var v_conic = vec3<f32>(0.0);
  var v_color = vec3<f32>(0.0);
  var v_opacity = 0.0;
  let box = tile_box(params, p.xy, radii);
  let rank = ranks[i];
  for (var ty = box.y; ty < box.w; ty++) {
    for (var tx = box.x; tx < box.z; tx++) {
      let k = find_in_tile(ranges[ty * params.tiles_x + tx], i, rank);
      if (k == NOT_FOUND) { continue; }
      for (var row = 0u; row < TILE_SIZE; row++) {
        let g = partials[k * TILE_SIZE + row];
        v_xy += vec2<f32>(g.v_xy[0], g.v_xy[1]);
        v_conic += vec3<f32>(g.v_conic[0], g.v_conic[1], g.v_conic[2]);
        v_color += vec3<f32>(g.v_color[0], g.v_color[1], g.v_color[2]);
        v_opacity += g.v_opacity;
      }
    }
  }

  let s = splats[i];
  let m = projection_math(params, s);
  let conic = mat2x2<f32>(vec2<f32>(p.conic.x, p.conic.y), vec2<f32>(p.conic.y, p.conic.z));
  // dL = tr(G dConic) with G symmetric; the off-diagonal gradient is split between both entries.
  let gm = mat2x2<f32>(vec2<f32>(v_conic.x, 0.5 * v_conic.y), vec2<f32>(0.5 * v_conic.y, v_conic.z));
  var h = (conic * gm * conic) * -1.0; // dL/dcov2d as a symmetric matrix
  var v_raw_opacity = v_opacity;
  if ((params.flags & FLAG_ANTIALIASED) != 0u) {
    // Composited opacity o * comp with comp = sqrt(det(cov2d - 0.3 I) / det(cov2d)) (project_forward):
    // the stored opacity gets comp times the composited one's gradient, and comp passes
    // o * v_opacity on to cov2d (the CPU reference's project-backward.ts, term for term).
    let ca = m.cov2d.x;
    let cb = m.cov2d.y;
    let cc = m.cov2d.z;
    let dil = COV2D_DILATION;
    let det_raw = (ca - dil) * (cc - dil) - cb * cb;
    let comp = sqrt(max(0.0, det_raw / m.det));
    v_raw_opacity = v_opacity * comp;
    if (comp > 0.0) {
      let k = 0.5 / comp * v_opacity * s.opacity;
      let det2 = m.det * m.det;
      h[0][0] += k * ((cc - dil) * m.det - det_raw * cc) / det2;
      h[1][1] += k * ((ca - dil) * m.det - det_raw * ca) / det2;
      // Half of the gradient on cov2d.xy in each off-diagonal slot, as gm above.
      let off = k * cb * (det_raw - m.det) / det2;
      h[0][1] += off;
      h[1][0] += off;
    }
  }
  let j = m.jac.j;
  let v_j = 2.0 * (h * j * m.cov_cam); // [2, 3]
  let v_cov_cam = transpose(j) * h * j;
  let wm = view_rotation(params);
  let v_sigma = transpose(wm) * v_cov_cam * wm;
  let sc = splat_scale(s);
  let rs = m.rot * mat3x3<f32>(vec3<f32>(sc.x, 0.0, 0.0), vec3<f32>(0.0, sc.y, 0.0), vec3<f32>(0.0, 0.0, sc.z));
  let v_m = 2.0 * (v_sigma * rs);
  let v_scale = vec3<f32>(dot(v_m[0], m.rot[0]), dot(v_m[1], m.rot[1]), dot(v_m[2], m.rot[2]));
  let v_rot = mat3x3<f32>(v_m[0] * sc.x, v_m[1] * sc.y, v_m[2] * sc.z);
  let raw_q = splat_quat(s);
  let qn = length(raw_q);
  let unit_q = raw_q / qn;
  let v_unit = quat_vjp(unit_q, v_rot);
  let v_q = (v_unit - unit_q * dot(unit_q, v_unit)) / qn;

  // Camera-space mean: through the 2D mean and through J.
  let t = m.t;
  let fx = params.focal.x;
  let fy = params.focal.y;
  let rz = 1.0 / t.z;
  let rz2 = rz * rz;
  var v_t = vec3<f32>(fx * rz * v_xy.x, fy * rz * v_xy.y, -(fx * t.x * v_xy.x + fy * t.y * v_xy.y) * rz2);
  v_t.z += -fx * rz2 * v_j[0][0] - fy * rz2 * v_j[1][1];
  v_t += clamped_column_vjp(0u, m.jac, t, fx, v_j[2][0]);
  v_t += clamped_column_vjp(1u, m.jac, t, fy, v_j[2][1]);
  let v_mean = transpose(wm) * v_t;

  out.mean = array<f32, 3>(v_mean.x, v_mean.y, v_mean.z);
  out.scale = array<f32, 3>(v_scale.x, v_scale.y, v_scale.z);
  out.quat = array<f32, 4>(v_q.x, v_q.y, v_q.z, v_q.w);
  out.color = array<f32, 3>(v_color.x, v_color.y, v_color.z);
  out.opacity = v_raw_opacity;
  grads[i] = out;
}
