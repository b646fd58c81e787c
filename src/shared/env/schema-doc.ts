// JSON Schema as reference-page text (docs/TOOLS.md, docs/API.md): a short type per schema and a
// Markdown table row per argument, nested items included, for any kind's tools and the LabApi.
// Input: a JSON Schema (draft 2020-12, as zod's toJSONSchema writes it). Output: text.
// Invariant: deterministic; a `|` in a cell is escaped.
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
