// A NeRF frame's file_path stays inside its capture folder (docs/SECURITY.md, issue 38): the path
// is confined after ".png" is added, so a symlink named like the frame plus ".png" cannot lead out.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { framePath } from '../../../src/main/authoring/nerf-frames';

describe('framePath', () => {
  it('refuses a symlinked frame named without its extension, and one named with it', () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-frames-'));
    const capture = join(root, 'capture');
    mkdirSync(join(capture, 'train'), { recursive: true });
    writeFileSync(join(root, 'secret.png'), 'outside');
    symlinkSync(join(root, 'secret.png'), join(capture, 'train', 'r_0.png'));
    writeFileSync(join(capture, 'train', 'r_1.png'), 'inside');
    expect(() => framePath(capture, './train/r_0')).toThrow(/frame file_path '.\/train\/r_0.png' is outside the capture folder/);
    expect(() => framePath(capture, './train/r_0.png')).toThrow(/is outside the capture folder/);
    expect(framePath(capture, './train/r_1')).toBe(join(capture, 'train', 'r_1.png'));
  });
});
