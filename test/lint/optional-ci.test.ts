// A green run means every part ran (issue 38 item 7, Done-when): under CI=true a unit file whose
// optional part is missing fails, with the one line of test/helpers/optional.ts, instead of
// skipping. Two real files run in a vitest of their own: the BullMQ stall test with no
// redis-server on the PATH, and the WebGPU flags test with the Vulkan ICD file pointed away.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingLine, type OptionalPart } from '../helpers/optional';

const VITEST = join(process.cwd(), 'node_modules', 'vitest', 'vitest.mjs');

function runUnderCi(file: string, env: NodeJS.ProcessEnv): { status: number | null; out: string } {
  const plain: NodeJS.ProcessEnv = { ...process.env, CI: 'true', NO_COLOR: '1', ...env };
  delete plain.FORCE_COLOR;
  const r = spawnSync(process.execPath, [VITEST, 'run', file], { env: plain, encoding: 'utf8', maxBuffer: 16 << 20 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('a missing optional part under CI=true', () => {
  it.each([
    ['redis', 'test/main/queue/stall.test.ts', { PATH: mkdtempSync(join(tmpdir(), 'splatlab-empty-path-')) }],
    ['gpu', 'test/shared/gpu/flags.test.ts', { VK_ICD_FILENAMES: '/nonexistent/vk_icd.json' }],
  ] as [OptionalPart, string, NodeJS.ProcessEnv][])('%s: %s fails with one line', (part, file, env) => {
    const { status, out } = runUnderCi(file, env);
    expect(status).toBe(1);
    // The failing test's error is the part's line, whole on one line of the report.
    expect(out.split('\n').some((l) => l.includes(`Error: ${missingLine(part)}`))).toBe(true);
    expect(out).toMatch(/1 failed/);
  }, 120_000);
});
