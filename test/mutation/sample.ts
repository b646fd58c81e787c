// A reproducible line sample for Stryker (docs/MUTATION.md, "Sampling"): a source line is in the
// sample when the SHA-1 of (file path, the line's trimmed text, how many identical lines precede it
// in the file) falls under `percent`. Input: repo-relative source files. Output: Stryker `mutate`
// ranges `file:L-L`, one per sampled line, so Stryker tests the mutants that lie within those lines.
// Invariant: the set depends only on the files' contents, never on a seed, the clock or the order
// of the file list; editing one line moves only that line (and its identical twins) in or out.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** True when this occurrence of the line is sampled at `percent` (0..100). */
export function lineSampled(file: string, text: string, occurrence: number, percent: number): boolean {
  const digest = createHash('sha1').update(`${file}\0${text}\0${occurrence}`).digest();
  return (digest.readUInt32BE(0) / 2 ** 32) * 100 < percent;
}

/** The sampled lines of `source` (1-based), skipping blank lines and comment-only lines. */
export function sampledLines(file: string, source: string, percent: number): number[] {
  const seen = new Map<string, number>();
  const lines: number[] = [];
  source.split('\n').forEach((raw, index) => {
    const text = raw.trim();
    if (text === '' || text.startsWith('//') || text.startsWith('*') || text.startsWith('/*')) return;
    const occurrence = seen.get(text) ?? 0;
    seen.set(text, occurrence + 1);
    if (lineSampled(file, text, occurrence, percent)) lines.push(index + 1);
  });
  return lines;
}

/** Stryker mutate ranges for the sampled lines of every file (sorted by file, then line). */
export function sampleRanges(files: readonly string[], root: string, percent: number): string[] {
  return [...files]
    .sort()
    .flatMap((file) => sampledLines(file, readFileSync(`${root}/${file}`, 'utf8'), percent).map((line) => `${file}:${line}-${line}`));
}
