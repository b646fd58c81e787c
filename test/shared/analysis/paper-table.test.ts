// The paper's table forms (src/shared/analysis/paper-table.ts) and the part names of a
// reassembly (src/shared/analysis/part-names.ts): an interval from few clusters is marked in its
// cell, the three forms carry the same cells and LaTeX's specials are escaped; the robot's k-means
// parts are named from its authored groups, left and right as seen from the front.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ciCell, numCell, paperCsv, paperLatex, paperMarkdown, type PaperTable } from '../../../src/shared/analysis/paper-table';
import { partNames } from '../../../src/shared/analysis/part-names';
import { PartsTruthSchema } from '../../../src/shared/authoring/scramble/truth';

describe('paper table cells', () => {
  it('marks an interval from fewer than five clusters in the cell, and a single cluster as having none', () => {
    expect(ciCell(12.34, 10.06, 14.21, 7)).toBe('12.3 [10.1, 14.2]');
    expect(ciCell(15, 15, 15, 2)).toBe('15.0 [15.0, 15.0] (k=2<5)');
    expect(ciCell(15, null, null, 1)).toBe('15.0 (k=1, no CI)');
    expect(ciCell(null, null, null, 0)).toBe('–');
    expect(numCell(-0.04)).toBe('0.0');
  });

  it('writes the same cells as CSV, Markdown and LaTeX, each with its notes', () => {
    const t: PaperTable = { id: 't', title: 'Cost & score', unit: 'USD', n: 'episodes', interval: 'none', statistic: 'mean', columns: ['Player', 'Cost_usd'], rows: [['a|b', '$1.50'], ['100%', '–']] };
    expect(paperCsv(t)).toBe('Player,Cost_usd\r\na|b,$1.50\r\n100%,–\r\n');
    const md = paperMarkdown(t);
    expect(md).toContain('| a\\|b | $1.50 |');
    expect(md).toContain('- Unit: USD.');
    const tex = paperLatex(t);
    expect(tex).toContain('Player & Cost\\_usd \\\\');
    expect(tex).toContain('a|b & \\$1.50 \\\\');
    expect(tex).toContain('100\\% & -- \\\\');
    expect(tex).toContain('\\caption{Cost \\& score. Unit: USD.');
  });
});

describe('part names from the authoring', () => {
  it('names the robot\'s parts by their authored groups, the legs by side', () => {
    const truth = PartsTruthSchema.parse(JSON.parse(readFileSync('tasks/objects/robot/parts_truth.json', 'utf8')));
    const object = JSON.parse(readFileSync('tasks/objects/robot/object.json', 'utf8')) as { parts: { pos: [number, number, number]; group?: string }[] };
    const names = partNames(truth.parts.map((p) => ({ label: p.label, positions: p.true_positions })), object.parts);
    expect(names.size).toBe(truth.parts.length);
    expect(new Set(names.values()).size).toBe(truth.parts.length);
    expect([...names.values()].sort()).toEqual(['Chest', 'Head', 'Left arm', 'Legs', 'Lower torso', 'Right arm']);
    for (const n of names.values()) expect(n).not.toMatch(/^part_/);
  });

  it('keeps the labels when the object has no named groups', () => {
    const names = partNames([{ label: 'part_a', positions: [[0, 0, 0]] }], [{ pos: [0, 0, 0] }]);
    expect(names.get('part_a')).toBe('part_a');
  });
});
