// docs/TOOLS.md must be exactly what the schemas generate (regenerate with writeToolsDoc()).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toolsMarkdown } from '../../../src/shared/kinds/splatbench/tools-doc';
import { TOOL_NAMES } from '../../../src/shared/kinds/splatbench/tools';

describe('docs/TOOLS.md', () => {
  it('is up to date with the zod schemas', () => {
    const doc = readFileSync(new URL('../../../docs/TOOLS.md', import.meta.url), 'utf8');
    expect(doc).toBe(toolsMarkdown());
    for (const name of TOOL_NAMES) expect(doc).toContain(`## ${name}\n`);
  });
});
