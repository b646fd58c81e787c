// Rotating a scene's view-dependent colour: when the world turns by R, a Gaussian's colour seen
// along direction d' must equal the old colour along R^T d', so each SH band's coefficients go
// through that band's rotation matrix. The matrices are found numerically: the rotated band
// lies exactly in the band's span, so a least-squares fit over sample directions recovers it to
// rounding. Inputs: a row-major 3x3 rotation, SH rest [N, K, 3]. Output: rest rotated in place.
// Invariant: the basis (signs and constants) is the 3DGS reference's, the rasterizer's own.
import type { Mat3 } from '../math/vec3';

const C1 = 0.4886025119029199;
const C2 = [1.0925484305920792, -1.0925484305920792, 0.31539156525252005, -1.0925484305920792, 0.5462742152960396];
const C3 = [-0.5900435899266435, 2.890611442640554, -0.4570457994644658, 0.3731763325901154, -0.4570457994644658, 1.445305721320277, -0.5900435899266435];

/** Bands 1..3 of the 3DGS SH basis at unit direction (x, y, z): 3 + 5 + 7 values. */
export function shBasis(x: number, y: number, z: number): number[] {
  const xx = x * x, yy = y * y, zz = z * z;
  return [
    -C1 * y, C1 * z, -C1 * x,
    C2[0] * x * y, C2[1] * y * z, C2[2] * (2 * zz - xx - yy), C2[3] * x * z, C2[4] * (xx - yy),
    C3[0] * y * (3 * xx - yy), C3[1] * x * y * z, C3[2] * y * (4 * zz - xx - yy), C3[3] * z * (2 * zz - 3 * xx - 3 * yy),
    C3[4] * x * (4 * zz - xx - yy), C3[5] * z * (xx - yy), C3[6] * x * (xx - 3 * yy),
  ];
}

/** Solves (A^T A) X = A^T B for a small square system by Gaussian elimination with pivoting. */
function leastSquares(a: number[][], b: number[][]): number[][] {
  const n = a[0].length;
  const m = b[0].length;
  const ata = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => a.reduce((s, row) => s + row[i] * row[j], 0)));
  const atb = Array.from({ length: n }, (_, i) => Array.from({ length: m }, (_, j) => a.reduce((s, row, r) => s + row[i] * b[r][j], 0)));
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(ata[r][c]) > Math.abs(ata[p][c])) p = r;
    [ata[c], ata[p]] = [ata[p], ata[c]];
    [atb[c], atb[p]] = [atb[p], atb[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = ata[r][c] / ata[c][c];
      for (let k = c; k < n; k++) ata[r][k] -= f * ata[c][k];
      for (let k = 0; k < m; k++) atb[r][k] -= f * atb[c][k];
    }
  }
  return atb.map((row, i) => row.map((v) => v / ata[i][i]));
}

/**
 * Per band, the matrix M with new[j] = sum_k M[j][k] old[k] (indices within the band), for
 * a world rotated by row-major R.
 */
export function shBandRotations(r: Readonly<Mat3>): number[][][] {
  const dirs: number[][] = [];
  // A fixed spread of directions (golden-angle spiral): plenty to pin a 7x7 matrix.
  const count = 64;
  for (let i = 0; i < count; i++) {
    const z = 1 - (2 * (i + 0.5)) / count;
    const rad = Math.sqrt(1 - z * z);
    const phi = i * 2.399963229728653;
    dirs.push([rad * Math.cos(phi), rad * Math.sin(phi), z]);
  }
  const at = (d: number[]): number[] => shBasis(d[0], d[1], d[2]);
  // R^T d: the old direction that the rotated scene shows along d.
  const back = (d: number[]): number[] => [0, 1, 2].map((c) => r[0 * 3 + c] * d[0] + r[1 * 3 + c] * d[1] + r[2 * 3 + c] * d[2]);
  const bands = [[0, 3], [3, 8], [8, 15]];
  return bands.map(([lo, hi]) => {
    const a = dirs.map((d) => at(d).slice(lo, hi));
    const b = dirs.map((d) => at(back(d)).slice(lo, hi));
    // Y_k(R^T d) = sum_j A_j(d) X[j][k]  =>  new coefficient j = sum_k X[j][k] old k.
    return leastSquares(a, b);
  });
}

/** Rotates SH rest [N, K, 3] (K = 3, 8 or 15) in place for a world rotated by R. */
export function rotateShRest(rest: Float32Array | Float64Array, count: number, k: number, r: Readonly<Mat3>): void {
  const mats = shBandRotations(r).slice(0, k === 3 ? 1 : k === 8 ? 2 : 3);
  const tmp = new Float64Array(7);
  for (let i = 0; i < count; i++) {
    let lo = 0;
    for (const m of mats) {
      const w = m.length;
      for (let c = 0; c < 3; c++) {
        for (let j = 0; j < w; j++) {
          let s = 0;
          for (let q = 0; q < w; q++) s += m[j][q] * rest[(i * k + lo + q) * 3 + c];
          tmp[j] = s;
        }
        for (let j = 0; j < w; j++) rest[(i * k + lo + j) * 3 + c] = tmp[j];
      }
      lo += w;
    }
  }
}
