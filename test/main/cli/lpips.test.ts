// `splatlab lpips fetch` converts local checkpoints (the fixtures stand in for the downloads) and
// reports an offline download as one line.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run';

const FIX = join(__dirname, '..', '..', 'fixtures', 'metrics', 'pth');

describe('splatlab lpips fetch', () => {
  it('converts local checkpoint files into a weights folder', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'splatlab-lpips-')), 'w');
    const run = await runCli('lpips', ['fetch', out, '--alexnet', join(FIX, 'fake-alexnet.pth'), '--lpips', join(FIX, 'fake-lpips.pth')]);
    expect(run.err).toEqual([]);
    expect(run.out[0]).toContain(`SPLATLAB_LPIPS_DIR=${out}`);
  });

  it('gives usage and file errors in one line', async () => {
    expect((await runCli('lpips', ['fetch'])).err[0]).toMatch(/usage/);
    const run = await runCli('lpips', ['fetch', join(tmpdir(), 'x'), '--alexnet', '/nonexistent.pth', '--lpips', '/nonexistent.pth']);
    expect(run.code).toBe(1);
    expect(run.err).toHaveLength(1);
  });
});
