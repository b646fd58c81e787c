// Shared structs, constants and projection math of the tiled rasterizer (docs/DESIGN.md section 3).
// Included once by every stage. Layouts mirror src/shared/raster/gpu/layouts.ts field by field.
// Invariant: project_forward and project_backward call the same functions here, so a Gaussian's
// tile box, Jacobian and covariance are bit-identical in both passes.

#include "constants.wgsl"
const NEAR_PLANE: f32 = 0.01;
const COV2D_DILATION: f32 = 0.3; // px^2
const ALPHA_MIN: f32 = 1.0 / 255.0;
const ALPHA_MAX: f32 = 0.99;
const T_STOP: f32 = 1e-4;
const RADIUS_CAP: f32 = 1073741824.0; // 2^30 px, keeps boxes representable as i32
const NOT_FOUND: u32 = 0xffffffffu;
const FLAG_SH: u32 = 1u; // ViewParams.flags: the scene has SH bands (colours are evaluated and clamped)
const FLAG_ANTIALIASED: u32 = 2u; // ViewParams.flags: mip-splatting opacity compensation

// One Gaussian (and, in the gradient buffer, its v_*). [N] of 56 bytes.
struct Splat {
  mean: array<f32, 3>,
  scale: array<f32, 3>,
  quat: array<f32, 4>, // (w, x, y, z), any length
  color: array<f32, 3>,
  opacity: f32,
}

// Output of project_forward. [N] of 64 bytes (vector members: one load each in the raster loops);
// radii (0, 0) means culled.
struct ProjectedSplat {
  xy: vec2<f32>, // pixel coordinates of the mean, not clamped
  depth: f32, // camera-space z
  opacity: f32,
  conic: vec3<f32>, // (a, b, c) of [[a, b], [b, c]] = inverse dilated 2D covariance, px^-2
  q_skip: f32, // q = d^T conic d above which alpha < 1/255 for certain (2 ln(255 o), widened)
  color: vec3<f32>,
  radii: vec2<i32>, // half-extents of the alpha >= 1/255 box, px
  // f (x/z, y/z) = xy - (cx, cy), px. The rasterizers take d = (centre - c) - xy_rel: centre - c
  // is exact, so float32 holds d to the spacing of |f u| instead of that of |f u + c| (3e-5 px
  // near x = 400), which through a sub-pixel Gaussian moved a colour by up to 1.8e-5.
  xy_rel: vec2<f32>,
}

// Summed gradient of one intersection over one pixel row of its tile. [capacity, 16] of 36 bytes.
struct IsectGrad {
  v_xy: array<f32, 2>,
  v_conic: array<f32, 3>,
  v_color: array<f32, 3>,
  v_opacity: f32,
}

struct ViewParams {
  row0: vec4<f32>, // world_to_camera rows; translation in .w
  row1: vec4<f32>,
  row2: vec4<f32>,
  focal: vec4<f32>, // fx, fy, cx, cy
  lims: vec4<f32>, // lim_x_pos, lim_x_neg, lim_y_pos, lim_y_neg (bounds on x/z and y/z)
  eye: vec4<f32>, // camera centre in world coordinates (xyz)
  width: u32,
  height: u32,
  tiles_x: u32,
  tiles_y: u32,
  count: u32,
  capacity: u32,
  sh_degree: u32, // SH bands evaluated (0..3)
  sh_stride: u32, // SH coefficients stored per Gaussian and channel
  flags: u32, // FLAG_SH | FLAG_ANTIALIASED
}

// Intersection bookkeeping; the host reads isect_total back to grow the id list when needed.
struct Control {
  isect_total: u32, // sum over tiles of the Gaussians whose box touches them
  visible: u32, // Gaussians not culled
}

fn view_rotation(v: ViewParams) -> mat3x3<f32> {
  // WGSL matrices are column-major: columns of W are (row0.x, row1.x, row2.x), ...
  return mat3x3<f32>(
    vec3<f32>(v.row0.x, v.row1.x, v.row2.x),
    vec3<f32>(v.row0.y, v.row1.y, v.row2.y),
    vec3<f32>(v.row0.z, v.row1.z, v.row2.z),
  );
}

fn to_camera(v: ViewParams, p: vec3<f32>) -> vec3<f32> {
  let h = vec4<f32>(p, 1.0);
  return vec3<f32>(dot(v.row0, h), dot(v.row1, h), dot(v.row2, h));
}

// Rotation matrix of a unit quaternion (w, x, y, z).
fn quat_to_mat(q: vec4<f32>) -> mat3x3<f32> {
  let w = q.x;
  let x = q.y;
  let y = q.z;
  let z = q.w;
  return mat3x3<f32>(
    vec3<f32>(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y)),
    vec3<f32>(2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x)),
    vec3<f32>(2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y)),
  );
}

// Skips exp() where it cannot matter. alpha = min(0.99, o exp(-q/2)) >= 1/255 needs q <= q_max =
// 2 ln(255 o); q_skip is q_max widened by far more than float32 rounding, so every pixel past it
// would also fail the exact alpha < 1/255 test, which stays the one that decides.
fn alpha_skip_bound(q_max: f32) -> f32 {
  return q_max * 1.001 + 1e-3;
}

fn splat_mean(s: Splat) -> vec3<f32> { return vec3<f32>(s.mean[0], s.mean[1], s.mean[2]); }
fn splat_scale(s: Splat) -> vec3<f32> { return vec3<f32>(s.scale[0], s.scale[1], s.scale[2]); }
fn splat_quat(s: Splat) -> vec4<f32> { return vec4<f32>(s.quat[0], s.quat[1], s.quat[2], s.quat[3]); }

// Perspective Jacobian at camera-space t, with x/z and y/z clamped to the view limits.
// J is 2x3 (WGSL mat3x2: three columns of vec2); `clamped` flags a clamped x/z or y/z, through
// which no gradient flows (gsplat's clipping mask).
struct Jacobian {
  j: mat3x2<f32>,
  clamped: vec2<bool>,
}

fn perspective_jacobian(v: ViewParams, t: vec3<f32>) -> Jacobian {
  let u = t.x / t.z;
  let w = t.y / t.z;
  let uc = min(v.lims.x, max(-v.lims.y, u));
  let wc = min(v.lims.z, max(-v.lims.w, w));
  let fx = v.focal.x;
  let fy = v.focal.y;
  // tx = z * uc, so -fx * tx / z^2 = -fx * uc / z.
  let j = mat3x2<f32>(
    vec2<f32>(fx / t.z, 0.0),
    vec2<f32>(0.0, fy / t.z),
    vec2<f32>(-fx * uc / t.z, -fy * wc / t.z),
  );
  return Jacobian(j, vec2<bool>(uc != u, wc != w));
}

// Everything derived from one Gaussian and a view, shared by the forward and backward projection.
struct ProjectionMath {
  t: vec3<f32>, // camera-space mean
  rot: mat3x3<f32>, // R of the normalised quaternion
  cov_cam: mat3x3<f32>, // W Sigma W^T
  jac: Jacobian,
  cov2d: vec3<f32>, // (xx, xy, yy) after dilation, px^2
  det: f32,
  xy: vec2<f32>,
}

fn projection_math(v: ViewParams, s: Splat) -> ProjectionMath {
  var m: ProjectionMath;
  m.t = to_camera(v, splat_mean(s));
  let q = splat_quat(s);
  m.rot = quat_to_mat(q / length(q));
  let sc = splat_scale(s);
  let rs = m.rot * mat3x3<f32>(vec3<f32>(sc.x, 0.0, 0.0), vec3<f32>(0.0, sc.y, 0.0), vec3<f32>(0.0, 0.0, sc.z));
  let wm = view_rotation(v);
  let wrs = wm * rs;
  m.cov_cam = wrs * transpose(wrs);
  m.jac = perspective_jacobian(v, m.t);
  let c = m.jac.j * m.cov_cam * transpose(m.jac.j);
  m.cov2d = vec3<f32>(c[0][0] + COV2D_DILATION, c[1][0], c[1][1] + COV2D_DILATION);
  m.det = m.cov2d.x * m.cov2d.z - m.cov2d.y * m.cov2d.y;
  m.xy = vec2<f32>(v.focal.x * (m.t.x / m.t.z) + v.focal.z, v.focal.y * (m.t.y / m.t.z) + v.focal.w);
  return m;
}

// Tiles visited by a Gaussian: those holding a pixel whose centre lies in the (rx, ry) box widened
// by half a pixel on each side (the CPU reference's pixelRange), clipped to the image.
// Returns (tx0, ty0, tx1, ty1) with tx1/ty1 exclusive; empty when tx0 >= tx1.
fn tile_box(v: ViewParams, xy: vec2<f32>, radii: vec2<i32>) -> vec4<u32> {
  let r = vec2<f32>(radii);
  let lo = max(floor(xy - r - 0.5), vec2<f32>(0.0));
  let hi = min(ceil(xy + r - 0.5), vec2<f32>(f32(v.width) - 1.0, f32(v.height) - 1.0));
  if (radii.x <= 0 || radii.y <= 0 || lo.x > hi.x || lo.y > hi.y) { return vec4<u32>(0u); }
  let t0 = vec2<u32>(lo) / TILE_SIZE;
  let t1 = vec2<u32>(hi) / TILE_SIZE + 1u;
  return vec4<u32>(t0, t1);
}

// Minimum over t in [lo, hi] of a t^2 + 2 b0 t + c0 (a > 0): the quadratic along one rectangle edge.
fn edge_min(a: f32, b0: f32, c0: f32, lo: f32, hi: f32) -> f32 {
  let t = clamp(-b0 / a, lo, hi);
  return (a * t + 2.0 * b0) * t + c0;
}

// True when Gaussian g may have alpha >= 1/255 at a pixel centre of tile (tx, ty): inside its box
// and the minimum of q = d^T conic d over the rectangle of the tile's pixel centres is at most
// q_skip, widened again (1% + 0.1) so float rounding here can never drop a pixel that the
// rasterizer's own test would keep. The tiled image is unchanged; thin or tilted ellipses
// simply skip the tiles of their box that they miss.
fn touches(v: ViewParams, g: ProjectedSplat, tx: u32, ty: u32) -> bool {
  let box = tile_box(v, g.xy, g.radii);
  if (!(tx >= box.x && tx < box.z && ty >= box.y && ty < box.w)) { return false; }
  let lo = vec2<f32>(f32(tx * TILE_SIZE), f32(ty * TILE_SIZE)) + 0.5 - g.xy;
  let hi = lo + f32(TILE_SIZE - 1u);
  if (lo.x <= 0.0 && hi.x >= 0.0 && lo.y <= 0.0 && hi.y >= 0.0) { return true; }
  let a = g.conic.x;
  let b = g.conic.y;
  let c = g.conic.z;
  // Edges x = lo.x, hi.x (quadratic in y) and y = lo.y, hi.y (quadratic in x).
  var q = edge_min(c, b * lo.x, a * lo.x * lo.x, lo.y, hi.y);
  q = min(q, edge_min(c, b * hi.x, a * hi.x * hi.x, lo.y, hi.y));
  q = min(q, edge_min(a, b * lo.y, c * lo.y * lo.y, lo.x, hi.x));
  q = min(q, edge_min(a, b * hi.y, c * hi.y * hi.y, lo.x, hi.x));
  return q <= g.q_skip * 1.01 + 0.1;
}
