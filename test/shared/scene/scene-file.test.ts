// Scene files in the compact and the loose form, and their one-line errors.
import { describe, expect, it } from 'vitest';
import { parseSceneFile, SceneFileError, sceneFileJson } from '../../../src/shared/scene/input';
import { testFigure } from '../../helpers/test-figure';

describe('parseSceneFile', () => {
  it('round-trips the compact form', () => {
    const truth = testFigure();
    const back = parseSceneFile(JSON.parse(JSON.stringify(sceneFileJson(truth))));
    expect(back).toHaveLength(12);
    back.forEach((r, i) => {
      expect(r.id).toBe(i);
      expect(r.group).toBe(truth[i].group);
      for (let k = 0; k < 3; k++) expect(r.pos[k]).toBe(truth[i].pos[k]);
      for (let k = 0; k < 4; k++) expect(r.quat[k]).toBeCloseTo(truth[i].quat[k], 15);
    });
  });

  it('reads the loose tool form with defaults, clamps and Euler angles', () => {
    const [a, b] = parseSceneFile({
      gaussians: [
        { pos: [0, 0, 0.5], color: '#ff8000' },
        { pos: [0.1, 0, 0], color: [0, 0, 1], scale: [0.9, 0.1, 0.1], rot: [0, 0, 90], opacity: 0.01, group: 'g' },
      ],
    });
    expect(a.scale).toEqual([0.05, 0.05, 0.05]);
    expect(a.opacity).toBe(1);
    expect(a.color[1]).toBeCloseTo(128 / 255, 12);
    expect(b.scale[0]).toBe(0.5);
    expect(b.opacity).toBe(0.05);
    expect(b.quat[0]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(b.quat[3]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(b.group).toBe('g');
  });

  it('names the first bad entry', () => {
    expect(() => parseSceneFile({ gaussians: [{ pos: [0, 0, 0], color: '#fff' }] })).toThrow("gaussian #0: unknown color '#fff'");
    expect(() => parseSceneFile({ gaussians: [{ pos: [0, 0, 0], color: 'red' }, { pos: [2, 0, 0], color: '#ffffff' }] })).toThrow(SceneFileError);
    expect(() => parseSceneFile({ gaussians: [{ pos: [0, 0, 0], color: '#ffffff' }, { pos: [2, 0, 0], color: '#ffffff' }] })).toThrow(/gaussian #1: position/);
    expect(() => parseSceneFile([1, 2])).toThrow('a scene file is {"gaussians": [...]}');
    expect(() => parseSceneFile({ gaussians: [{ p: [0, 0, 0] }] })).toThrow('gaussian #0: expected {p, s, q, c, o}');
  });
});
