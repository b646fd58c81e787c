// Exact analytic ray caster for procedural objects (spheres/ellipsoids, boxes, capped cylinders,
// capped cones): one invocation per pixel, s*s supersamples, fixed ambient + diffuse lighting.
// CPU reference: src/shared/authoring/raycast.ts and intersect.ts (same formulas, same order).
// Buffers: params (uniform RaycastParams), parts [count] Part (read), pixels [H * W] vec4 out
// = (r, g, b, coverage), composited over white. Invariant: pixel (x, y) averages the rays through
// (x + (i + 0.5) / s, y + (j + 0.5) / s) for j, i in [0, s), j outer, like the CPU loop.

#include "constants.wgsl"

struct RaycastParams {
  row0: vec4<f32>, // world_to_camera rotation rows (.w unused)
  row1: vec4<f32>,
  row2: vec4<f32>,
  centre: vec4<f32>, // camera centre in world (.w unused)
  focal: vec4<f32>, // fx, fy, cx, cy
  light: vec4<f32>, // unit direction towards the light (xyz), ambient (w)
  width: u32,
  height: u32,
  samples: u32,
  count: u32, // number of parts
  diffuse: f32,
  _pad0: f32,
  _pad1: f32,
  _pad2: f32,
}

// Layout mirrored by PART in src/shared/authoring/gpu/layout.ts (29 words, no padding).
struct Part {
  to_local: array<f32, 9>, // R^T row-major
  to_world: array<f32, 9>, // R row-major
  pos: array<f32, 3>,
  size: array<f32, 3>, // sphere semi-axes | box half extents | (radius, height / 2, 0)
  color: array<f32, 3>,
  kind: u32, // 0 sphere, 1 box, 2 cylinder, 3 cone
  bound2: f32, // squared radius of a sphere about pos containing the part
}

@group(0) @binding(0) var<uniform> params: RaycastParams;
@group(0) @binding(1) var<storage, read> parts: array<Part>;
@group(0) @binding(2) var<storage, read_write> pixels: array<vec4<f32>>;

const MISS: f32 = 3.0e38;
const PARALLEL_EPS: f32 = 1e-12;

struct Hit {
  t: f32, // MISS when nothing was hit
  n: vec3<f32>, // local outward normal, not normalised
}

fn miss() -> Hit {
  return Hit(MISS, vec3<f32>(0.0));
}

fn hit_ellipsoid(s: vec3<f32>, o: vec3<f32>, d: vec3<f32>, t_min: f32) -> Hit {
  let p = o / s;
  let q = d / s;
  let a = dot(q, q);
  let b = dot(p, q);
  let k = b / a;
  let w = p - k * q;
  let h = 1.0 - dot(w, w);
  if (h < 0.0) { return miss(); }
  let t = (-b - sqrt(a * h)) / a;
  if (!(t > t_min)) { return miss(); }
  return Hit(t, (o + t * d) / (s * s));
}

fn safe_dir(v: f32) -> f32 {
  if (abs(v) < PARALLEL_EPS) { return select(PARALLEL_EPS, -PARALLEL_EPS, v < 0.0); }
  return v;
}

// One slab of the box: entry and exit parameters along one local axis.
fn slab(s: f32, o: f32, d: f32) -> vec2<f32> {
  let di = safe_dir(d);
  let t1 = (-s - o) / di;
  let t2 = (s - o) / di;
  return vec2<f32>(min(t1, t2), max(t1, t2));
}

fn hit_box(s: vec3<f32>, o: vec3<f32>, d: vec3<f32>, t_min: f32) -> Hit {
  // Axes in order x, y, z with a strict '>' so ties go to the lower axis, as on the CPU.
  let sx = slab(s.x, o.x, d.x);
  let sy = slab(s.y, o.y, d.y);
  let sz = slab(s.z, o.z, d.z);
  var t_near = sx.x;
  var n = vec3<f32>(select(1.0, -1.0, safe_dir(d.x) > 0.0), 0.0, 0.0);
  if (sy.x > t_near) {
    t_near = sy.x;
    n = vec3<f32>(0.0, select(1.0, -1.0, safe_dir(d.y) > 0.0), 0.0);
  }
  if (sz.x > t_near) {
    t_near = sz.x;
    n = vec3<f32>(0.0, 0.0, select(1.0, -1.0, safe_dir(d.z) > 0.0));
  }
  let t_far = min(sx.y, min(sy.y, sz.y));
  if (t_near > t_far || !(t_near > t_min)) { return miss(); }
  return Hit(t_near, n);
}

fn hit_cylinder(r: f32, hh: f32, o: vec3<f32>, d: vec3<f32>, t_min: f32) -> Hit {
  var best = miss();
  let a = d.x * d.x + d.y * d.y;
  if (a > PARALLEL_EPS) {
    let b = o.x * d.x + o.y * d.y;
    let k = b / a;
    let wx = o.x - k * d.x;
    let wy = o.y - k * d.y;
    let h = r * r - (wx * wx + wy * wy);
    if (h >= 0.0) {
      let t = (-b - sqrt(a * h)) / a;
      let z = o.z + t * d.z;
      if (t > t_min && abs(z) <= hh) {
        best = Hit(t, vec3<f32>(o.x + t * d.x, o.y + t * d.y, 0.0));
      }
    }
  }
  if (abs(d.z) > PARALLEL_EPS) {
    best = cylinder_cap(best, -1.0, r, hh, o, d, t_min);
    best = cylinder_cap(best, 1.0, r, hh, o, d, t_min);
  }
  return best;
}

// Keeps the hit on the cap z = sz * hh (sz = -1 bottom, +1 top) if it is nearer and on the disk.
fn cylinder_cap(best: Hit, sz: f32, r: f32, hh: f32, o: vec3<f32>, d: vec3<f32>, t_min: f32) -> Hit {
  let t = (sz * hh - o.z) / d.z;
  let x = o.x + t * d.x;
  let y = o.y + t * d.y;
  if (t > t_min && t < best.t && x * x + y * y <= r * r) {
    return Hit(t, vec3<f32>(0.0, 0.0, sz));
  }
  return best;
}

// Keeps the root t of the cone's side quadric if it is nearer and on the finite cone.
fn cone_side(best: Hit, t: f32, o: vec3<f32>, d: vec3<f32>, w0: f32, k2: f32, hh: f32, t_min: f32) -> Hit {
  let w = w0 - t * d.z;
  if (t > t_min && t < best.t && w >= 0.0 && w <= 2.0 * hh) {
    return Hit(t, vec3<f32>(o.x + t * d.x, o.y + t * d.y, k2 * w));
  }
  return best;
}

fn hit_cone(r: f32, hh: f32, o: vec3<f32>, d: vec3<f32>, t_min: f32) -> Hit {
  // Side: x^2 + y^2 = k^2 w^2 with w = hh - z the depth below the tip, for w in [0, 2 hh].
  let k = r / (2.0 * hh);
  let k2 = k * k;
  let w0 = hh - o.z;
  let a = d.x * d.x + d.y * d.y - k2 * d.z * d.z;
  let b = o.x * d.x + o.y * d.y + k2 * w0 * d.z;
  let c = o.x * o.x + o.y * o.y - k2 * w0 * w0;
  var best = miss();
  var t1 = MISS;
  var t2 = MISS;
  if (abs(a) > PARALLEL_EPS) {
    let disc = b * b - a * c;
    if (disc >= 0.0) {
      let sq = sqrt(disc);
      t1 = (-b - sq) / a;
      t2 = (-b + sq) / a;
    }
  } else if (abs(b) > PARALLEL_EPS) {
    t1 = -c / (2.0 * b);
  }
  best = cone_side(best, t1, o, d, w0, k2, hh, t_min);
  best = cone_side(best, t2, o, d, w0, k2, hh, t_min);
  if (abs(d.z) > PARALLEL_EPS) {
    let t = (-hh - o.z) / d.z;
    let x = o.x + t * d.x;
    let y = o.y + t * d.y;
    if (t > t_min && t < best.t && x * x + y * y <= r * r) {
      best = Hit(t, vec3<f32>(0.0, 0.0, -1.0));
    }
  }
  return best;
}

// Part i's rotations applied to v, read from the storage buffer in place so the per-ray loop
// never copies a whole Part.
fn to_local(i: u32, v: vec3<f32>) -> vec3<f32> {
  return vec3<f32>(
    parts[i].to_local[0] * v.x + parts[i].to_local[1] * v.y + parts[i].to_local[2] * v.z,
    parts[i].to_local[3] * v.x + parts[i].to_local[4] * v.y + parts[i].to_local[5] * v.z,
    parts[i].to_local[6] * v.x + parts[i].to_local[7] * v.y + parts[i].to_local[8] * v.z,
  );
}

fn to_world(i: u32, v: vec3<f32>) -> vec3<f32> {
  return vec3<f32>(
    parts[i].to_world[0] * v.x + parts[i].to_world[1] * v.y + parts[i].to_world[2] * v.z,
    parts[i].to_world[3] * v.x + parts[i].to_world[4] * v.y + parts[i].to_world[5] * v.z,
    parts[i].to_world[6] * v.x + parts[i].to_world[7] * v.y + parts[i].to_world[8] * v.z,
  );
}

fn shade(n: vec3<f32>) -> f32 {
  return params.light.w + params.diffuse * max(0.0, dot(n, params.light.xyz));
}

// Colour (rgb) and hit flag (w) of the ray through pixel coordinates (u, v).
fn trace(u: f32, v: f32) -> vec4<f32> {
  let cx = (u - params.focal.z) / params.focal.x;
  let cy = (v - params.focal.w) / params.focal.y;
  let dir = normalize(cx * params.row0.xyz + cy * params.row1.xyz + params.row2.xyz);
  var best = MISS;
  var hit = 0u;
  var found = false;
  var n = vec3<f32>(0.0);
  for (var k = 0u; k < params.count; k++) {
    let pos = vec3<f32>(parts[k].pos[0], parts[k].pos[1], parts[k].pos[2]);
    let o = to_local(k, params.centre.xyz - pos);
    let d = to_local(k, dir);
    // Restart at the closest approach to the part centre (small, float32-friendly quadratics).
    let t0 = -dot(o, d);
    let os = o + t0 * d;
    if (dot(os, os) > parts[k].bound2) { continue; }
    let size = vec3<f32>(parts[k].size[0], parts[k].size[1], parts[k].size[2]);
    var h: Hit;
    switch parts[k].kind {
      case 0u: { h = hit_ellipsoid(size, os, d, -t0); }
      case 1u: { h = hit_box(size, os, d, -t0); }
      case 2u: { h = hit_cylinder(size.x, size.y, os, d, -t0); }
      default: { h = hit_cone(size.x, size.y, os, d, -t0); }
    }
    if (h.t < MISS && h.t + t0 < best) {
      best = h.t + t0;
      hit = k;
      found = true;
      n = to_world(k, h.n);
    }
  }
  if (!found) { return vec4<f32>(1.0, 1.0, 1.0, 0.0); }
  let nl = length(n);
  let f = select(shade(vec3<f32>(0.0, 0.0, 1.0)), shade(n / nl), nl > 0.0);
  let c = vec3<f32>(parts[hit].color[0], parts[hit].color[1], parts[hit].color[2]);
  return vec4<f32>(clamp(c * f, vec3<f32>(0.0), vec3<f32>(1.0)), 1.0);
}

@compute @workgroup_size(RAYCAST_WORKGROUP, RAYCAST_WORKGROUP)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (gid.x >= params.width || gid.y >= params.height) { return; }
  let s = params.samples;
  let fs = f32(s);
  var acc = vec4<f32>(0.0);
  for (var j = 0u; j < s; j++) {
    for (var i = 0u; i < s; i++) {
      acc += trace(f32(gid.x) + (f32(i) + 0.5) / fs, f32(gid.y) + (f32(j) + 0.5) / fs);
    }
  }
  pixels[gid.y * params.width + gid.x] = acc / f32(s * s);
}
