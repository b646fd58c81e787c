// `splatlab docs [--check]`: writes docs/TOOLS.md and docs/API.md from the zod schemas (tools,
// LabApi, trajectory records); --check only reports whether the committed files are current.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiMarkdown } from '../../../shared/api/api-doc';
import { defaultKind, kindModule } from '../../../shared/kinds/registry';
import { toolsDocOf } from '../../kinds/registry';
import { repoRoot } from '../../io/data-dir';
import { parseArgs } from '../args';
import type { CliCommand } from '../command';

export function generatedDocs(): Record<string, string> {
  return { 'docs/TOOLS.md': toolsDocOf(kindModule(defaultKind()).family), 'docs/API.md': `${apiMarkdown()}\n` };
}

export const command: CliCommand = {
  name: 'docs',
  usage: 'splatlab docs [--check]\n\nRegenerates docs/TOOLS.md and docs/API.md from the schemas; --check exits 1 if either is stale.',
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['check'] });
    let stale = 0;
    for (const [rel, text] of Object.entries(generatedDocs())) {
      const path = join(repoRoot(), rel);
      const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
      if (current === text) continue;
      if (args.options.has('check')) {
        stale++;
        io.err(`${rel} is out of date (run npm run docs)`);
      } else {
        writeFileSync(path, text);
        io.out(`wrote ${rel}`);
      }
    }
    return stale ? 1 : 0;
  },
};
