// The import preview turns the capture's up axis to +Z: a column standing along the file's -Y
// (COLMAP-style) is drawn upright with up -y (the .ply guess, said to be a guess) and lying down
// with up +z; the up line says where the axis came from.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewSplatUpload } from '../../../src/main/authoring/session/splat-preview';
import { decodePng } from '../../../src/main/io/png';
import { writeSplatFile } from '../../../src/main/formats/write';
import { emptySplats } from '../../../src/shared/scene/splats';

/** Width and height of the non-white part of a preview. */
function extent(url: string): { w: number; h: number } {
  const png = decodePng(new Uint8Array(Buffer.from(url.slice('data:image/png;base64,'.length), 'base64')));
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (let y = 0; y < png.height; y++) for (let x = 0; x < png.width; x++) {
    const o = (y * png.width + x) * png.channels;
    if (png.data[o] < 0.8 || png.data[o + 1] < 0.8 || png.data[o + 2] < 0.8) {
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
  }
  return { w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

describe('import preview', () => {
  it('draws a -Y-up column upright with up -y and lying with up +z', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-preview-'));
    const s = emptySplats(60);
    for (let i = 0; i < 60; i++) {
      s.means.set([0, -i / 20, 0], i * 3); // 3 units tall along -Y
      s.scales.set([0.05, 0.05, 0.05], i * 3);
      s.colors.set([0.8, 0.2, 0.2], i * 3);
      s.opacities[i] = 1;
    }
    const path = join(dir, 'column.ply');
    await writeSplatFile(path, s, { format: 'ply' });
    const auto = await previewSplatUpload(path, 'auto', 0);
    expect(auto.up).toBe('-y');
    expect(auto.upSource).toBe('guess');
    expect(auto.upLine).toMatch(/^up axis -y is a guess/);
    const upright = extent(auto.side);
    expect(upright.h).toBeGreaterThan(3 * upright.w);
    const lying = extent((await previewSplatUpload(path, '+z', 0)).side);
    expect(lying.w).toBeGreaterThan(2 * lying.h);
    // cameras.json beside the file (OpenCV cameras whose image up is world -Y) decide it instead.
    writeFileSync(join(dir, 'cameras.json'), JSON.stringify([{ id: 0, rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], position: [0, 0, -3] }]));
    const cams = await previewSplatUpload(path, 'auto', 0);
    expect(cams.upSource).toBe('cameras');
    expect(cams.upLine).toMatch(/^up axis -y \(detected from 1 cameras in .*cameras\.json, mean camera up 0\.0 deg off the axis\)$/);
  });
});
