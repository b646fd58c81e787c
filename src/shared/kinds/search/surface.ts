// Surface samples of a primitive: points on its boundary with outward normals and the local
// sample spacing, laid out deterministically (grids on faces, rings on round surfaces).
// Inputs: a Part and a target spacing in metres. Output: SurfaceSample[] in world coordinates.
// Invariant: every sample lies on the part's surface (up to float rounding) and its normal is the
// outward unit normal there; the same part and spacing always give the same samples in the same order.
import { eulerMatrix, localHalfExtents } from '../../authoring/geometry';
import type { Part, Vec3 } from '../../authoring/primitives';

export interface SurfaceSample {
  p: Vec3;
  n: Vec3;
  /** Spacing of the samples around this one (metres): the splat's footprint. */
  ds: number;
}

type Emit = (p: Vec3, n: Vec3, ds: number) => void;

export function sampleSurface(part: Part, spacing: number): SurfaceSample[] {
  const out: SurfaceSample[] = [];
  const R = eulerMatrix(part.rot);
  const c = part.pos;
  const rot = (v: Vec3): Vec3 => [R[0] * v[0] + R[1] * v[1] + R[2] * v[2], R[3] * v[0] + R[4] * v[1] + R[5] * v[2], R[6] * v[0] + R[7] * v[1] + R[8] * v[2]];
  const emit: Emit = (p, n, ds) => {
    const w = rot(p);
    const m = rot(n);
    const l = Math.hypot(m[0], m[1], m[2]) || 1;
    out.push({ p: [w[0] + c[0], w[1] + c[1], w[2] + c[2]], n: [m[0] / l, m[1] / l, m[2] / l], ds });
  };
  const e = localHalfExtents(part);
  if (part.kind === 'box') boxSamples(e, spacing, emit);
  else if (part.kind === 'sphere') ellipsoidSamples(e, spacing, emit);
  else if (part.kind === 'cylinder') cylinderSamples(e[0], e[2], spacing, emit);
  else coneSamples(e[0], e[2], spacing, emit);
  return out;
}

function boxSamples(e: Vec3, s: number, emit: Emit): void {
  for (let axis = 0; axis < 3; axis++) {
    const u = (axis + 1) % 3, v = (axis + 2) % 3;
    const nu = Math.max(1, Math.ceil((2 * e[u]) / s)), nv = Math.max(1, Math.ceil((2 * e[v]) / s));
    const du = (2 * e[u]) / nu, dv = (2 * e[v]) / nv;
    for (const sign of [-1, 1]) {
      for (let i = 0; i < nu; i++) {
        for (let j = 0; j < nv; j++) {
          const p: Vec3 = [0, 0, 0];
          const n: Vec3 = [0, 0, 0];
          p[axis] = sign * e[axis];
          n[axis] = sign;
          p[u] = -e[u] + (i + 0.5) * du;
          p[v] = -e[v] + (j + 0.5) * dv;
          emit(p, n, Math.max(du, dv));
        }
      }
    }
  }
}

function ellipsoidSamples(e: Vec3, s: number, emit: Emit): void {
  const rMax = Math.max(e[0], e[1], e[2]);
  const rings = Math.max(2, Math.ceil((Math.PI * rMax) / s));
  for (let i = 0; i < rings; i++) {
    const th = (Math.PI * (i + 0.5)) / rings;
    const around = Math.max(3, Math.ceil((2 * Math.PI * rMax * Math.sin(th)) / s));
    for (let j = 0; j < around; j++) {
      const ph = (2 * Math.PI * (j + (i % 2) * 0.5)) / around;
      const u: Vec3 = [Math.sin(th) * Math.cos(ph), Math.sin(th) * Math.sin(ph), Math.cos(th)];
      emit([e[0] * u[0], e[1] * u[1], e[2] * u[2]], [u[0] / e[0], u[1] / e[1], u[2] / e[2]], s);
    }
  }
}

/** Concentric rings covering a disk of radius r at height z with normal (0, 0, nz). */
function diskSamples(r: number, z: number, nz: number, s: number, emit: Emit): void {
  const rings = Math.max(1, Math.ceil(r / s));
  const dr = r / rings;
  for (let i = 0; i < rings; i++) {
    const rho = (i + 0.5) * dr;
    const around = Math.max(3, Math.ceil((2 * Math.PI * rho) / s));
    for (let j = 0; j < around; j++) {
      const ph = (2 * Math.PI * j) / around;
      emit([rho * Math.cos(ph), rho * Math.sin(ph), z], [0, 0, nz], Math.max(dr, (2 * Math.PI * rho) / around));
    }
  }
}

function cylinderSamples(r: number, hh: number, s: number, emit: Emit): void {
  const rows = Math.max(1, Math.ceil((2 * hh) / s));
  const around = Math.max(6, Math.ceil((2 * Math.PI * r) / s));
  const dz = (2 * hh) / rows;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < around; j++) {
      const ph = (2 * Math.PI * (j + (i % 2) * 0.5)) / around;
      emit([r * Math.cos(ph), r * Math.sin(ph), -hh + (i + 0.5) * dz], [Math.cos(ph), Math.sin(ph), 0], Math.max(dz, (2 * Math.PI * r) / around));
    }
  }
  diskSamples(r, hh, 1, s, emit);
  diskSamples(r, -hh, -1, s, emit);
}

function coneSamples(r: number, hh: number, s: number, emit: Emit): void {
  const slant = Math.hypot(r, 2 * hh);
  const rows = Math.max(1, Math.ceil(slant / s));
  // Outward normal of the side: proportional to (2 hh cos, 2 hh sin, r).
  for (let i = 0; i < rows; i++) {
    const f = (i + 0.5) / rows; // 0 at the tip, 1 at the base
    const rho = f * r;
    const z = hh - f * 2 * hh;
    const around = Math.max(3, Math.ceil((2 * Math.PI * rho) / s));
    for (let j = 0; j < around; j++) {
      const ph = (2 * Math.PI * (j + (i % 2) * 0.5)) / around;
      emit([rho * Math.cos(ph), rho * Math.sin(ph), z], [2 * hh * Math.cos(ph), 2 * hh * Math.sin(ph), r], Math.max(slant / rows, (2 * Math.PI * rho) / around));
    }
  }
  diskSamples(r, -hh, -1, s, emit);
}
