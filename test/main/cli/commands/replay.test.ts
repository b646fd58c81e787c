// `splatlab replay`: step lines with tool, hidden score and short text; the end record; a cut
// final line; bad input as one error line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { command, shortText } from '../../../../src/main/cli/commands/replay';
import type { CliIO } from '../../../../src/main/cli/command';

function capture(): { io: CliIO; out: string[] } {
  const out: string[] = [];
  return { io: { out: (l) => out.push(l), err: () => undefined }, out };
}

const footer = '[12/300 Gaussians | calls left 38 | renders left 16]';
const lines = [
  { type: 'header', task: 'test__sculpt', protocol: 'agent', player: 'p1', versions: { splatlab: '0.1.0', format: 1, node: 'v20' }, started: '2026-01-01T00:00:00Z' },
  { step: 0, tool: 'reset', args: {}, text: 'Reference views: V0 (azimuth 0°, elevation 20°)', t: '2026-01-01T00:00:00Z', ms: 1 },
  { step: 1, tool: 'add_gaussians', args: {}, text: `Added 12 Gaussians (ids 0-11).\n${footer}`, t: '2026-01-01T00:00:01Z', ms: 5, hidden: { score: 41.5, psnr: 20, ssim: 0.9, iou: 0.5, lpips: 0.2 } },
  { step: 2, tool: 'submit', args: {}, text: `Submitted. ${footer}`, t: '2026-01-01T00:00:02Z', ms: 1, done: true },
  { type: 'end', reason: 'submit', score: 41.5, reward: 0.415, training_reward: 0.61, psnr: 20, ssim: 0.9, iou: 0.5, lpips: 0.2, lpips_missing: false, calls_used: 2, renders_used: 0, gaussians: 12, t: '2026-01-01T00:00:02Z' },
];

describe('replay command', () => {
  it('prints each step with its hidden score and the end record', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replay-'));
    const path = join(dir, 'out.jsonl');
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const c = capture();
    expect(await command.run([path], c.io)).toBe(0);
    expect(c.out[0]).toBe(`${path}: task test__sculpt, protocol agent, player p1, started 2026-01-01T00:00:00Z`);
    expect(c.out[2]).toMatch(/^ {3}0 {2}reset +- {2}Reference views: V0/);
    expect(c.out[3]).toMatch(/^ {3}1 {2}add_gaussians +41\.50 {2}Added 12 Gaussians \(ids 0-11\)\.$/);
    expect(c.out[4]).toMatch(/submit +- {2}Submitted\.$/);
    expect(c.out[5]).toBe('end (submit): SplatScore 41.50, reward 0.415, training reward 0.610; 2 calls, 0 renders, 12 Gaussians');
    const full = capture();
    await command.run([path, '--full'], full.io);
    expect(full.out).toContain(`      ${footer}`);
  });

  it('reports a cut final line and an unfinished episode', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replay-'));
    const path = join(dir, 'cut.jsonl');
    writeFileSync(path, lines.slice(0, 3).map((l) => JSON.stringify(l)).join('\n') + '\n{"step": 3, "to');
    const c = capture();
    expect(await command.run([path], c.io)).toBe(0);
    expect(c.out).toContain('no end record: the episode did not finish');
    expect(c.out.at(-1)).toMatch(/last line was cut short/);
  });

  it('refuses missing files and empty logs in one line', async () => {
    const c = capture();
    await expect(command.run([], c.io)).rejects.toThrow('give exactly one trajectory file');
    await expect(command.run(['/nonexistent.jsonl'], c.io)).rejects.toThrow('trajectory /nonexistent.jsonl does not exist');
    const dir = mkdtempSync(join(tmpdir(), 'replay-'));
    writeFileSync(join(dir, 'e.jsonl'), '\n');
    await expect(command.run([join(dir, 'e.jsonl')], c.io)).rejects.toThrow('holds no trajectory records');
  });

  it('shortens texts and strips the budget footer', () => {
    expect(shortText(`x\n${footer}`)).toBe('x');
    expect(shortText('a'.repeat(200), 10)).toBe('aaaaaaa...');
  });
});
