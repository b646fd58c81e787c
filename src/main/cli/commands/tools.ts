// `splatlab tools [--json]`: the ten tools with their arguments, from the zod schemas.
import { defaultKind, kindModule } from '../../../shared/kinds/registry';
import { typeText } from '../../../shared/env/schema-doc';
import { toolsDocOf } from '../../kinds/registry';
import { parseArgs } from '../args';
import type { CliCommand } from '../command';

interface Props {
  properties?: Record<string, { description?: string } & Parameters<typeof typeText>[0]>;
  required?: string[];
}

export const command: CliCommand = {
  name: 'tools',
  usage: 'splatlab tools [--json | --markdown]\n\nLists the episode tools and their arguments; --json prints the JSON Schema of every tool,\n--markdown the reference page (docs/TOOLS.md is generated with it: npm run docs).',
  async run(argv, io) {
    const args = parseArgs(argv, { flags: ['json', 'markdown'] });
    if (args.options.get('markdown')) {
      process.stdout.write(toolsDocOf(kindModule(defaultKind()).family));
      return 0;
    }
    const tools = kindModule(defaultKind()).toolSpecs();
    if (args.options.get('json')) {
      io.out(JSON.stringify(tools, null, 2));
      return 0;
    }
    for (const t of tools) {
      io.out(`${t.name}: ${t.description}`);
      const p = t.parameters as Props;
      for (const [name, s] of Object.entries(p.properties ?? {})) {
        io.out(`    ${name}${p.required?.includes(name) ? '' : '?'}: ${typeText(s)}`);
      }
    }
    return 0;
  },
};
