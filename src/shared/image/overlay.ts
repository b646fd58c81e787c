// Orientation overlay drawn on photos and renders given to the player: the grey wireframe of the
// bounds cube [-1, 1]^3 and an axis marker at corner (-1, -1, -1) (X red, Y green, Z blue, each
// labelled). Inputs: an image and the explicit camera it was taken with. Output: a new image
// (the input is untouched). Invariant: edges are clipped to the camera's near plane before
// projection, so views from inside or very close to the cube stay correct.
import type { Camera } from '../raster/types';
import { cloneRgb, drawLine, type Rgb } from './draw';
import { drawText } from './font';
import type { RgbImage } from './image';

type Vec3 = readonly [number, number, number];

const NEAR = 0.01;
const CUBE_GREY: Rgb = [0.45, 0.45, 0.45];
const AXIS_LENGTH = 0.6; // world units along each axis from the corner
const AXES: { dir: Vec3; color: Rgb; label: string }[] = [
  { dir: [1, 0, 0], color: [0.85, 0.1, 0.1], label: 'X' },
  { dir: [0, 1, 0], color: [0.05, 0.6, 0.1], label: 'Y' },
  { dir: [0, 0, 1], color: [0.1, 0.25, 0.9], label: 'Z' },
];
const CORNER: Vec3 = [-1, -1, -1];

/** Camera-space position of a world point (OpenCV axes, z forward). */
export function toCamera(camera: Camera, p: Vec3): Vec3 {
  const m = camera.world_to_camera;
  return [
    m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3],
    m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7],
    m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11],
  ];
}

/** Continuous pixel coordinates of a camera-space point with z > 0. */
function toPixel(camera: Camera, c: Vec3): [number, number] {
  return [camera.fx * (c[0] / c[2]) + camera.cx, camera.fy * (c[1] / c[2]) + camera.cy];
}

/** Projects a world segment, clipped to z >= NEAR; null when it lies wholly behind the camera. */
export function projectSegment(camera: Camera, a: Vec3, b: Vec3): [number, number, number, number] | null {
  let ca = toCamera(camera, a);
  let cb = toCamera(camera, b);
  if (ca[2] < NEAR && cb[2] < NEAR) return null;
  const cut = (p: Vec3, q: Vec3): Vec3 => {
    const t = (NEAR - p[2]) / (q[2] - p[2]);
    return [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), NEAR];
  };
  if (ca[2] < NEAR) ca = cut(ca, cb);
  else if (cb[2] < NEAR) cb = cut(cb, ca);
  const [ax, ay] = toPixel(camera, ca);
  const [bx, by] = toPixel(camera, cb);
  return [ax, ay, bx, by];
}

/** The 12 edges of [-1, 1]^3 as pairs of corners. */
export function cubeEdges(): [Vec3, Vec3][] {
  const edges: [Vec3, Vec3][] = [];
  for (let axis = 0; axis < 3; axis++) {
    for (const u of [-1, 1]) {
      for (const v of [-1, 1]) {
        const corner = (t: number): Vec3 => {
          const p: [number, number, number] = [0, 0, 0];
          p[axis] = t;
          p[(axis + 1) % 3] = u;
          p[(axis + 2) % 3] = v;
          return p;
        };
        edges.push([corner(-1), corner(1)]);
      }
    }
  }
  return edges;
}

/** Line width that stays readable on large images and thin on small ones. */
function lineWidth(img: RgbImage): number {
  return Math.max(1, Math.min(img.width, img.height) / 256);
}

/** Returns a copy of `img` with the bounds cube and the axis marker drawn for `camera`. */
export function drawOverlay(img: RgbImage, camera: Camera): RgbImage {
  const out = cloneRgb(img);
  const sx = img.width / camera.width;
  const sy = img.height / camera.height;
  const w = lineWidth(img);
  const draw = (a: Vec3, b: Vec3, color: Rgb, width: number, alpha: number): [number, number] | null => {
    const seg = projectSegment(camera, a, b);
    if (!seg) return null;
    drawLine(out, seg[0] * sx, seg[1] * sy, seg[2] * sx, seg[3] * sy, color, width, alpha);
    return [seg[2] * sx, seg[3] * sy];
  };
  for (const [a, b] of cubeEdges()) draw(a, b, CUBE_GREY, w, 0.8);
  const fontScale = img.width >= 384 ? 2 : 1;
  for (const axis of AXES) {
    const tip: Vec3 = [
      CORNER[0] + AXIS_LENGTH * axis.dir[0],
      CORNER[1] + AXIS_LENGTH * axis.dir[1],
      CORNER[2] + AXIS_LENGTH * axis.dir[2],
    ];
    const end = draw(CORNER, tip, axis.color, 2 * w, 1);
    const tipCam = toCamera(camera, tip);
    if (!end || tipCam[2] < NEAR) continue;
    // Label just beyond the tip, pushed outwards along the projected axis direction.
    const base = toPixel(camera, toCamera(camera, CORNER));
    const dx = end[0] - base[0] * sx;
    const dy = end[1] - base[1] * sy;
    const n = Math.hypot(dx, dy) || 1;
    const lx = end[0] + (6 * dx) / n - 2.5 * fontScale;
    const ly = end[1] + (6 * dy) / n - 3.5 * fontScale;
    drawText(out, lx, ly, axis.label, axis.color, fontScale);
  }
  return out;
}
