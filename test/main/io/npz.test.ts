// npz round trips through our reader, and through numpy when python3 + numpy are installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeNpy, encodeNpy, NpzError, readNpz, readSceneNpz, writeNpz, writeSceneNpz, type NpzScene } from '../../../src/main/io/npz';
import { skipWithout } from '../../helpers/optional';

const hasNumpy = spawnSync('python3', ['-c', 'import numpy'], { stdio: 'ignore' }).status === 0;

function scene(): NpzScene {
  return {
    count: 3,
    positions: Float32Array.from([0.1, -0.2, 0.3, 1, 1, 1, -1.25, 0, 0.5]),
    scales: Float32Array.from([0.1, 0.1, 0.1, 0.2, 0.05, 0.3, 0.5, 0.5, 0.005]),
    quaternions: Float32Array.from([1, 0, 0, 0, 0.5, 0.5, 0.5, 0.5, 0, 0, 0, 1]),
    colors: Float32Array.from([1, 0, 0, 0, 1, 0, 0.25, 0.5, 0.75]),
    opacities: Float32Array.from([1, 0.5, 0.05]),
    groups: ['body', null, 'höhe'],
  };
}

describe('npy', () => {
  it('round-trips every dtype and keeps the data 64-byte aligned', () => {
    const f4 = encodeNpy({ dtype: 'f4', shape: [2, 2], data: Float32Array.from([1.5, -2, 3, 4]) });
    expect((10 + new DataView(f4.buffer).getUint16(8, true)) % 64).toBe(0);
    expect(decodeNpy(f4)).toEqual({ dtype: 'f4', shape: [2, 2], data: Float32Array.from([1.5, -2, 3, 4]) });
    expect(decodeNpy(encodeNpy({ dtype: 'i8', shape: [2], data: [-5, 7] })).data).toEqual([-5, 7]);
    expect(decodeNpy(encodeNpy({ dtype: 'U', shape: [3], data: ['a', 'bcd', ''] })).data).toEqual(['a', 'bcd', '']);
    expect(decodeNpy(encodeNpy({ dtype: 'f8', shape: [], data: Float64Array.from([Math.PI]) })).data[0]).toBe(Math.PI);
  });

  it('rejects a shape that does not match the data', () => {
    expect(() => encodeNpy({ dtype: 'f4', shape: [3], data: new Float32Array(2) })).toThrow(NpzError);
  });
});

describe('npz', () => {
  it('round-trips a scene with int32 group labels', () => {
    const bytes = writeSceneNpz(scene());
    const back = readSceneNpz(bytes);
    expect(back).toEqual(scene());
    const raw = readNpz(bytes);
    expect(raw.groups).toEqual({ dtype: 'i4', shape: [3], data: Int32Array.from([0, -1, 1]) });
    expect(raw.group_names.data).toEqual(['body', 'höhe']);
  });

  it('is byte-for-byte reproducible', () => {
    expect(writeSceneNpz(scene())).toEqual(writeSceneNpz(scene()));
  });

  it('reads unicode group arrays and reports a missing array', () => {
    const s = scene();
    const bytes = writeNpz({
      positions: { dtype: 'f4', shape: [3, 3], data: s.positions },
      scales: { dtype: 'f4', shape: [3, 3], data: s.scales },
      quaternions: { dtype: 'f4', shape: [3, 4], data: s.quaternions },
      colors: { dtype: 'f4', shape: [3, 3], data: s.colors },
      opacities: { dtype: 'f4', shape: [3], data: s.opacities },
      groups: { dtype: 'U', shape: [3], data: ['a', '', 'b'] },
    });
    expect(readSceneNpz(bytes).groups).toEqual(['a', null, 'b']);
    const noScales = writeNpz({ positions: { dtype: 'f4', shape: [1, 3], data: new Float32Array(3) } });
    expect(() => readSceneNpz(noScales)).toThrow("missing array 'scales'");
    expect(() => readNpz(new Uint8Array(40))).toThrow(NpzError);
  });

  describe.skipIf(skipWithout('python', hasNumpy))('with numpy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'npz-'));

    it('numpy.load reads what we write', () => {
      const path = join(dir, 'scene.npz');
      writeFileSync(path, writeSceneNpz(scene()));
      const script = [
        'import numpy as np, json, sys',
        'z = np.load(sys.argv[1])',
        'print(json.dumps({k: [str(z[k].dtype), list(z[k].shape), z[k].tolist()] for k in z.files}))',
      ].join('\n');
      const got = JSON.parse(execFileSync('python3', ['-c', script, path], { encoding: 'utf8' }));
      expect(got.positions[0]).toBe('float32');
      expect(got.positions[1]).toEqual([3, 3]);
      expect(got.positions[2][2][0]).toBe(-1.25);
      expect(got.groups.slice(0, 2)).toEqual(['int32', [3]]);
      expect(got.group_names[2]).toEqual(['body', 'höhe']);
      expect(got.quaternions[2][1]).toEqual([0.5, 0.5, 0.5, 0.5]);
    });

    it('we read numpy.savez_compressed output with string groups', () => {
      const path = join(dir, 'np.npz');
      const script = [
        'import numpy as np, sys',
        'n = 2',
        'np.savez_compressed(sys.argv[1], positions=np.array([[0.1, 0.2, 0.3], [0, 0, 1]], np.float32),',
        '  scales=np.full((n, 3), 0.1, np.float32), quaternions=np.tile(np.array([1, 0, 0, 0], np.float32), (n, 1)),',
        '  colors=np.zeros((n, 3), np.float64), opacities=np.ones(n, np.float32), groups=np.array(["left", "right"]))',
      ].join('\n');
      execFileSync('python3', ['-c', script, path]);
      const back = readSceneNpz(new Uint8Array(readFileSync(path)));
      expect(back.count).toBe(2);
      expect(back.positions[5]).toBe(1);
      expect(back.groups).toEqual(['left', 'right']);
    });
  });
});
