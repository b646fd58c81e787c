// docs/API.md generated from the LabApi method and event tables and the trajectory record schemas
// (the single sources of truth), so the reference cannot drift from what main validates.
// Output: Markdown text. Invariant: deterministic for a given set of schemas.
import { z } from 'zod';
import { labEvents, labMethods } from './lab';
import { PARTICIPANT_ROWS, participantMay } from './roles';
import { rows, typeText, type JsonSchema } from '../env/schema-doc';
import { EndRecordSchema, StepRecordSchema, TrajectoryHeaderSchema } from '../env/trajectory-schema';

function json(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
}

function table(schema: JsonSchema): string[] {
  const props = schema.properties ?? {};
  if (Object.keys(props).length === 0) return [schema.type === 'object' ? 'None.' : `\`${typeText(schema)}\``, ''];
  return ['| field | type | required | description |', '|---|---|---|---|', ...rows(props, schema.required ?? []), ''];
}

export function apiMarkdown(): string {
  const lines = [
    '# LabApi and trajectory reference',
    '',
    '<!-- Generated from src/shared/api/lab.ts and src/shared/env/trajectory-schema.ts by apiMarkdown(); do not edit by hand (npm run docs). -->',
    '',
    'LabApi is the whole surface the UI, agents and tests may call. Over Electron IPC a method is the',
    'channel `lab:<method>`; over the WebSocket of `splatlab serve` a request is',
    '`{"id": n, "method": "...", "params": {...}}` and the answer `{"id": n, "ok": true, "result": ...}`',
    'or `{"id": n, "ok": false, "error": {"code", "message"}}`. Params and results are validated with',
    'the zod schemas below. Study, debugger and authoring rows that could show hidden data are',
    'refused while a participant session runs. A participant connection (a participant-scoped token,',
    'or a screen handed to a participant) may call only the rows marked **participant** below, for',
    'its own session and episode; every other row answers `forbidden` (docs/SECURITY.md).',
    '',
    '## Methods',
    '',
  ];
  for (const [name, spec] of Object.entries(labMethods)) {
    lines.push(`### ${name}`, '', participantMay(name) ? `**participant** (${PARTICIPANT_ROWS[name]}). ${spec.doc}` : spec.doc, '', '**Params**', '', ...table(json(spec.params, 'input')), '**Result**', '', ...table(json(spec.result, 'output')));
  }
  lines.push('## Events', '', 'Pushed as `{"event": name, "data": ...}` to the one connection they are addressed to (the one that started the fit or import); never broadcast.', '');
  for (const [name, schema] of Object.entries(labEvents)) lines.push(`### ${name}`, '', ...table(json(schema as z.ZodType, 'output')));
  lines.push(
    '## Trajectory records',
    '',
    'A trajectory is JSONL: one header line, one record per call (step 0 is the first observation),',
    'and a closing record. Records are appended and flushed as they happen.',
    '',
    '### header',
    '',
    ...table(json(TrajectoryHeaderSchema, 'output')),
    '### call record',
    '',
    ...table(json(StepRecordSchema, 'output')),
    '### end',
    '',
    ...table(json(EndRecordSchema, 'output')),
  );
  return lines.join('\n');
}
