// The generated references (tools, LabApi, trajectory records) match the committed docs.
import { describe, expect, it } from 'vitest';
import { runCli } from './run';

describe('generated docs', () => {
  it('docs/TOOLS.md and docs/API.md are up to date (npm run docs)', async () => {
    const run = await runCli('docs', ['--check']);
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
  });
});
