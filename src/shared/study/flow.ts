// Participant flow of a study (issue 24 item 7; docs/STUDIES.md "Participant flow"): how many
// participants were created, consented, declined, started a task, withdrew, had an episode
// excluded and completed, as papers report it (a CONSORT-style diagram). The counts survive a
// deletion: a deletion record keeps the participant's stage flags (booleans, no personal data).
// Inputs: the participant records and the deletion records. Outputs: FlowCounts, flowSvg (the
// diagram) and the rows of the export's flow table. Invariant: every participant ever created is
// counted exactly once in `created`; a deleted participant counts from its deletion record only.
import { z } from 'zod';
import type { Participant } from './config';

export const FlowFlagsSchema = z.strictObject({
  consented: z.boolean(),
  declined: z.boolean(),
  started: z.boolean(),
  withdrawn: z.boolean(),
  excluded: z.boolean(),
  completed: z.boolean(),
});
export type FlowFlags = z.infer<typeof FlowFlagsSchema>;

export const FLOW_STAGES = ['created', 'consented', 'declined', 'started', 'withdrawn', 'excluded', 'completed'] as const;
export const FlowCountsSchema = z.strictObject({
  created: z.number().int(),
  consented: z.number().int(),
  declined: z.number().int(),
  started: z.number().int(),
  withdrawn: z.number().int(),
  excluded: z.number().int(),
  completed: z.number().int(),
  /** Of `created`, how many records were deleted on request (counted from their deletion records). */
  deleted: z.number().int(),
});
export type FlowCounts = z.infer<typeof FlowCountsSchema>;

/** Where a participant got to (before any deletion). */
export function flowFlags(p: Participant): FlowFlags {
  const decision = p.consent?.decision ?? (p.consentAt ? 'agreed' : null);
  const scored = p.episodes.filter((e) => !e.practice);
  return {
    consented: decision === 'agreed',
    declined: decision === 'declined' || p.status === 'declined',
    started: p.episodes.length > 0,
    withdrawn: p.withdrawal !== undefined || p.status === 'withdrawn',
    excluded: scored.some((e) => e.excluded !== undefined),
    completed: p.status === 'completed',
  };
}

/** The study's flow: live records by their flags, deleted ones by the flags their deletion kept. */
export function participantFlow(participants: readonly Participant[], deletions: readonly { participant: string; flow?: FlowFlags }[]): FlowCounts {
  const kept = new Map(deletions.map((d) => [d.participant, d.flow]));
  const out: FlowCounts = { created: 0, consented: 0, declined: 0, started: 0, withdrawn: 0, excluded: 0, completed: 0, deleted: 0 };
  for (const p of participants) {
    out.created += 1;
    const flags = p.status === 'deleted' ? kept.get(p.id) : flowFlags(p);
    if (p.status === 'deleted') out.deleted += 1;
    if (!flags) continue;
    for (const k of Object.keys(flags) as (keyof FlowFlags)[]) if (flags[k]) out[k] += 1;
  }
  return out;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The flow as an SVG diagram: the main column (created, consented, started, completed) with the exits beside it. */
export function flowSvg(c: FlowCounts, title = 'Participant flow'): string {
  const W = 520;
  const box = (x: number, y: number, w: number, label: string, n: number, id: string): string =>
    `<g data-stage="${id}"><rect x="${x}" y="${y}" width="${w}" height="40" rx="4" fill="none" stroke="currentColor"/><text x="${x + w / 2}" y="${y + 25}" text-anchor="middle" font-size="13">${esc(label)}: n = ${n}</text></g>`;
  const arrow = (x1: number, y1: number, x2: number, y2: number): string => `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="currentColor" marker-end="url(#flow-arrow)"/>`;
  const main = [
    ['created', 'Created', c.created],
    ['consented', 'Consented', c.consented],
    ['started', 'Started a task', c.started],
    ['completed', 'Completed', c.completed],
  ] as const;
  const side = [
    ['declined', 'Declined consent', c.declined, 0],
    ['withdrawn', 'Withdrew', c.withdrawn, 2],
    ['excluded', 'An episode excluded', c.excluded, 3],
  ] as const;
  const parts: string[] = [];
  main.forEach(([id, label, n], i) => {
    const y = 40 + i * 70;
    parts.push(box(20, y, 220, label, n, id));
    if (i > 0) parts.push(arrow(130, y - 30, 130, y - 2));
  });
  for (const [id, label, n, row] of side) {
    const y = 40 + row * 70 - (row === 0 ? -35 : 35);
    parts.push(box(300, y, 200, label, n, id));
    parts.push(arrow(240, y + 20, 298, y + 20));
  }
  const h = 40 + main.length * 70;
  const note = c.deleted ? `${c.deleted} record(s) deleted on request are counted from their deletion records` : 'no records deleted';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${h + 20}" width="${W}" height="${h + 20}" role="img" aria-label="${esc(title)}" font-family="sans-serif">`,
    `<defs><marker id="flow-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="currentColor"/></marker></defs>`,
    `<text x="20" y="22" font-size="15" font-weight="bold">${esc(title)}</text>`,
    ...parts,
    `<text x="20" y="${h + 12}" font-size="11">${esc(note)}</text>`,
    '</svg>',
  ].join('');
}

/** The export's flow table: one row per stage. */
export function flowRows(c: FlowCounts): { stage: string; n: number }[] {
  return [...FLOW_STAGES.map((stage) => ({ stage, n: c[stage] })), { stage: 'deleted', n: c.deleted }];
}
