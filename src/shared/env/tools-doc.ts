// docs/TOOLS.md generated from the tool schemas (the single source of truth), so the docs can
// never drift from what the episode validates.
// Input: TOOL_SCHEMAS via toolJsonSchemas(). Output: Markdown text. Invariant: deterministic.
import { toolJsonSchemas } from './tools';

export interface JsonSchema {
  type?: string | string[];
  oneOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | false;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
}

/** Short type text: `number`, `[number, number, number]`, `string | null`, `array of object`. */
export function typeText(s: JsonSchema): string {
  if (s.anyOf) return s.anyOf.map(typeText).join(' | ');
  if (s.oneOf) return s.oneOf.map(typeText).join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(s.type)) return s.type.join(' | ');
  if (s.prefixItems) return `[${s.prefixItems.map(typeText).join(', ')}]`;
  if (s.type === 'array') return s.items ? `array of ${typeText(s.items)}` : 'array';
  if (s.type === 'integer') return 'integer';
  return s.type ?? 'any';
}

export function rows(props: Record<string, JsonSchema>, required: readonly string[], prefix = ''): string[] {
  const out: string[] = [];
  for (const [name, p] of Object.entries(props)) {
    const range = [p.minimum !== undefined ? `>= ${p.minimum}` : '', p.maximum !== undefined && p.maximum < Number.MAX_SAFE_INTEGER ? `<= ${p.maximum}` : ''].filter(Boolean).join(', ');
    const desc = [p.description ?? '', range ? `(${range})` : ''].filter(Boolean).join(' ').replace(/\|/g, '\\|');
    out.push(`| \`${prefix}${name}\` | ${typeText(p).replace(/\|/g, '\\|')} | ${required.includes(name) ? 'yes' : 'no'} | ${desc} |`);
    const item = p.items && p.items.type === 'object' ? p.items : undefined;
    if (item?.properties) out.push(...rows(item.properties, item.required ?? [], `${prefix}${name}[].`));
  }
  return out;
}

export function toolsMarkdown(): string {
  const lines = [
    '# SplatBench tools',
    '',
    '<!-- Generated from src/shared/env/tools.ts by toolsMarkdown(); do not edit by hand. -->',
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
