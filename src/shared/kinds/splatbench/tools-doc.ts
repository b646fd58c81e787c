// docs/TOOLS.md generated from the tool schemas (the single source of truth), so the docs can
// never drift from what the episode validates.
// Input: TOOL_SCHEMAS via toolJsonSchemas(). Output: Markdown text. Invariant: deterministic.
import { rows, type JsonSchema } from '../../env/schema-doc';
import { toolJsonSchemas } from './tools';

export function toolsMarkdown(): string {
  const lines = [
    '# SplatBench tools',
    '',
    '<!-- Generated from src/shared/kinds/splatbench/tools.ts by toolsMarkdown(); do not edit by hand. -->',
    '',
    'Every call costs one tool call (render_views and render_angle also one render) and every result',
    'ends with the budget footer `[74/300 Gaussians | calls left 37 | renders left 15]`. Calls are',
    'atomic: an invalid call changes nothing, says why and still costs a call. Arrays and objects',
    'may also be passed as JSON strings. Items of a list are numbered from `#0` in messages.',
    '',
  ];
  for (const tool of toolJsonSchemas()) {
    const params = tool.parameters as JsonSchema;
    lines.push(`## ${tool.name}`, '', tool.description, '');
    const props = params.properties ?? {};
    if (Object.keys(props).length === 0) lines.push('No arguments.', '');
    else lines.push('| argument | type | required | description |', '|---|---|---|---|', ...rows(props, params.required ?? []), '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
