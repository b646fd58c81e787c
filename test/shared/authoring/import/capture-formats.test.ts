// The capture readers' conventions by hand: each COLMAP model's parameters, the lens and its
// inverse, undistorting an image, the levelling rotation, LLFF's down/right/back columns and
// MVSNet's blocks (docs/TASKS.md "Photographed objects").
import { describe, expect, it } from 'vitest';
import { captureUp, distort, levelling, modelIntrinsics, moveCamera, undistortImage, undistortPoint, type CaptureCamera } from '../../../../src/shared/authoring/import/capture';
import { parseColmapText } from '../../../../src/shared/authoring/import/colmap';
import { llffCameras, parseMvsnetCam } from '../../../../src/shared/authoring/import/llff-mvsnet';
import type { Mat3, Vec3 } from '../../../../src/shared/math/vec3';

describe('camera models', () => {
  it('reads each COLMAP model in its parameter order and refuses others by name', () => {
    expect(modelIntrinsics('SIMPLE_PINHOLE', [100, 50, 40], 'x')).toEqual({ fx: 100, fy: 100, cx: 50, cy: 40, distortion: { k1: 0, k2: 0, p1: 0, p2: 0 } });
    expect(modelIntrinsics('PINHOLE', [100, 90, 50, 40], 'x')).toMatchObject({ fx: 100, fy: 90 });
    expect(modelIntrinsics('SIMPLE_RADIAL', [100, 50, 40, 0.1], 'x').distortion).toEqual({ k1: 0.1, k2: 0, p1: 0, p2: 0 });
    expect(modelIntrinsics('RADIAL', [100, 50, 40, 0.1, -0.02], 'x').distortion).toEqual({ k1: 0.1, k2: -0.02, p1: 0, p2: 0 });
    expect(modelIntrinsics('OPENCV', [100, 90, 50, 40, 0.1, -0.02, 0.001, -0.002], 'x')).toEqual({ fx: 100, fy: 90, cx: 50, cy: 40, distortion: { k1: 0.1, k2: -0.02, p1: 0.001, p2: -0.002 } });
    expect(() => modelIntrinsics('OPENCV_FISHEYE', [1, 1, 1, 1, 0, 0, 0, 0], 'camera 3')).toThrow(/^camera 3: camera model OPENCV_FISHEYE is not supported/);
    expect(() => modelIntrinsics('PINHOLE', [1, 2, 3], 'camera 1')).toThrow(/PINHOLE takes 4 finite parameters, got 3/);
  });

  it('distorts as OPENCV does and inverts it', () => {
    const d = { k1: 0.1, k2: -0.02, p1: 0.001, p2: -0.002 };
    const [x, y] = [0.3, -0.2];
    const r2 = x * x + y * y;
    const radial = 1 + 0.1 * r2 - 0.02 * r2 * r2;
    const [xd, yd] = distort(d, x, y);
    expect(xd).toBeCloseTo(x * radial + 2 * 0.001 * x * y - 0.002 * (r2 + 2 * x * x), 14);
    expect(yd).toBeCloseTo(y * radial + 2 * -0.002 * x * y + 0.001 * (r2 + 2 * y * y), 14);
    const [ux, uy] = undistortPoint(d, xd, yd);
    expect(ux).toBeCloseTo(x, 10);
    expect(uy).toBeCloseTo(y, 10);
  });

  it('undistorts an image: a straight edge bent by the lens comes out straight', () => {
    const cam: CaptureCamera = { name: 'a', width: 64, height: 48, fx: 50, fy: 50, cx: 32, cy: 24, distortion: { k1: -0.5, k2: 0, p1: 0, p2: 0 }, world_to_camera: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] };
    // The photo through the lens of the half-plane x_n > 0.4 (a vertical edge in the pinhole image).
    const src = new Float32Array(64 * 48);
    for (let j = 0; j < 48; j++) {
      for (let i = 0; i < 64; i++) {
        const [x] = undistortPoint(cam.distortion, (i + 0.5 - 32) / 50, (j + 0.5 - 24) / 50);
        src[j * 64 + i] = x > 0.4 ? 1 : 0;
      }
    }
    const out = undistortImage(src, 1, cam);
    // Pinhole: the edge is at u = 0.4 * 50 + 32 = 52 on every row.
    for (const j of [1, 24, 46]) {
      expect(out[j * 64 + 50]).toBeLessThan(0.5);
      expect(out[j * 64 + 53]).toBeGreaterThan(0.5);
    }
    // The distorted photo's edge moves with the row (the test would pass on it otherwise).
    const edge = (img: Float32Array, j: number): number => Array.from({ length: 64 }, (_, i) => img[j * 64 + i]).findIndex((v) => v > 0.5);
    expect(edge(src, 1)).toBeLessThan(edge(src, 24) - 1);
  });
});

describe('levelling', () => {
  it("turns the cameras' mean up onto +Z with the smallest rotation", () => {
    const up: Vec3 = [0.6, 0, 0.8];
    const r = levelling(up);
    const rv = [0, 1, 2].map((i) => r[3 * i] * up[0] + r[3 * i + 1] * up[1] + r[3 * i + 2] * up[2]);
    rv.forEach((v, i) => expect(v).toBeCloseTo([0, 0, 1][i], 12));
    // Y (perpendicular to the turn) stays.
    [r[1], r[4], r[7]].forEach((v, i) => expect(v).toBeCloseTo([0, 1, 0][i], 12));
    // A camera whose image +Y is world -X has up +X.
    expect(captureUp([{ world_to_camera: [0, 0, 1, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 1] }])).toEqual([1, 0, 0]);
  });

  it('moves a camera with the world: a point keeps its pixel', () => {
    const m = [0, -1, 0, 0.3, 0, 0, -1, 0.2, 1, 0, 0, 4, 0, 0, 0, 1];
    const L: Mat3 = levelling([0, 0.6, 0.8]);
    const c: Vec3 = [0.5, -1, 2];
    const s = 0.25;
    const moved = moveCamera(m, L, c, s);
    const p: Vec3 = [0.7, 0.1, -0.4];
    const q = [0, 1, 2].map((i) => s * (L[3 * i] * p[0] + L[3 * i + 1] * p[1] + L[3 * i + 2] * p[2] - c[i]));
    const proj = (mm: number[], v: number[]) => {
      const x = [0, 1, 2].map((i) => mm[4 * i] * v[0] + mm[4 * i + 1] * v[1] + mm[4 * i + 2] * v[2] + mm[4 * i + 3]);
      return [x[0] / x[2], x[1] / x[2]];
    };
    proj(moved, q).forEach((v, i) => expect(v).toBeCloseTo(proj(m, p)[i], 12));
  });
});

describe('capture layouts', () => {
  it('COLMAP text: world-to-camera quaternion and translation, names with spaces, the 2D-points line skipped', () => {
    const cams = parseColmapText('# c\n1 PINHOLE 640 480 500 500 320 240\n', '# i\n1 0.7071067811865476 0 0.7071067811865476 0 1 2 3 1 my photo.jpg\n10 20 -1\n');
    expect(cams).toHaveLength(1);
    expect(cams[0].name).toBe('my photo.jpg');
    // 90 deg about +Y: world +X goes to camera -Z.
    const m = cams[0].world_to_camera;
    [m[8], m[9], m[10]].forEach((v, i) => expect(v).toBeCloseTo([-1, 0, 0][i], 12));
    expect([m[3], m[7], m[11]]).toEqual([1, 2, 3]);
    expect(() => parseColmapText('1 PINHOLE 640 480 500 500 320 240\n', '1 1 0 0 0 0 0 0 2 a.jpg\n\n')).toThrow(/image a\.jpg uses camera 2, which the cameras file does not list/);
  });

  it('LLFF: columns down, right, back, centre, hwf; focal scaled with a smaller photo', () => {
    // A camera at (0, 0, 5) looking down -Z (back = +Z), image right = +X, image down = -Y.
    const row = [0, 1, 0, 0, 300, -1, 0, 0, 0, 400, 0, 0, 1, 5, 350, 1, 10];
    const [cam] = llffCameras(row, [{ name: 'a.png', width: 200, height: 150 }]);
    expect(cam).toMatchObject({ fx: 175, fy: 175, cx: 100, cy: 75, width: 200 });
    cam.world_to_camera.forEach((v, i) => expect(v).toBeCloseTo([1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 5, 0, 0, 0, 1][i], 14));
    expect(() => llffCameras(row, [])).toThrow(/has 1 rows but the images folder holds 0 photos/);
  });

  it('MVSNet: extrinsic and intrinsic blocks', () => {
    const text = 'extrinsic\n1 0 0 0.5\n0 1 0 0\n0 0 1 3\n0 0 0 1\n\nintrinsic\n600 0 380\n0 610 290\n0 0 1\n\n425 2.5\n';
    expect(parseMvsnetCam(text, 'a.jpg', { width: 768, height: 576 }, 'cams/a_cam.txt')).toMatchObject({ fx: 600, fy: 610, cx: 380, cy: 290, world_to_camera: [1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 3, 0, 0, 0, 1] });
    expect(() => parseMvsnetCam('intrinsic\n1 0 0 0 1 0 0 0 1', 'a', { width: 1, height: 1 }, 'cams/a_cam.txt')).toThrow(/cams\/a_cam\.txt has no 'extrinsic' block/);
  });
});
