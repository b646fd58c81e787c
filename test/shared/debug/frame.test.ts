// The debugger's relative up-axis turn: placing a scene with axis a and then with
// relativeTurn(a, b) lands on the scene placed with b, for all 36 pairs (positions, orientations
// up to sign, SH bands), and the frame line names the frame in use.
import { describe, expect, it } from 'vitest';
import { frameLine, relativeTurn } from '../../../src/shared/debug/frame';
import { placeSplats } from '../../../src/shared/formats/placement';
import { AXES } from '../../../src/shared/formats/types';
import { shColumn } from '../../helpers/sh-scene';

const place = (s: ReturnType<typeof shColumn>, up: (typeof AXES)[number], yawDeg = 0) => placeSplats(s, { up, yawDeg, recentre: 'none', scale: 'metric' }).splats;

describe('relativeTurn', () => {
  it('composes with the first turn into the second, for every pair of axes', () => {
    const s = shColumn(12, 3, 7);
    for (const a of AXES) {
      const first = place(s, a);
      for (const b of AXES) {
        const t = relativeTurn(a, b);
        expect([0, 90, -90, 180]).toContain(t.yawDeg);
        const two = place(first, t.up, t.yawDeg);
        const direct = place(s, b);
        for (let i = 0; i < s.count * 3; i++) expect(two.means[i]).toBeCloseTo(direct.means[i], 5);
        for (let g = 0; g < s.count; g++) {
          const sign = Math.sign(two.quats[g * 4] * direct.quats[g * 4] + two.quats[g * 4 + 1] * direct.quats[g * 4 + 1] + two.quats[g * 4 + 2] * direct.quats[g * 4 + 2] + two.quats[g * 4 + 3] * direct.quats[g * 4 + 3]) || 1;
          for (let c = 0; c < 4; c++) expect(two.quats[g * 4 + c] * sign).toBeCloseTo(direct.quats[g * 4 + c], 5);
        }
        const r2 = two.sh?.rest ?? [];
        const rd = direct.sh?.rest ?? [];
        for (let i = 0; i < rd.length; i++) expect(r2[i]).toBeCloseTo(rd[i], 4);
      }
    }
  });

  it('says which frame is in use', () => {
    const ev = { detected: null, convention: 'INRIA', usual: '-y' as const, source: 'guess' };
    expect(frameLine('+z', false, ev)).toBe('axes as stored (INRIA; up -y, guess): nothing rotated');
    expect(frameLine('-y', true, ev)).toMatch(/^up axis -y \(chosen\): the file's -y is turned to the lab's \+Z/);
    const det = { ...ev, detected: { up: '+y' as const, line: 'from 12 cameras' } };
    expect(frameLine('+y', false, det)).toBe("up as detected: the file's +y is the lab's +Z (from 12 cameras)");
  });
});
