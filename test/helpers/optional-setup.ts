// Global setup of the unit suite (vitest.config.ts): gives the test files a folder to record the
// optional parts they found (test/helpers/optional.ts) and prints, after the run, which optional
// parts ran and which were missing (issue 38 item 7), so a green run says what it covered.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { OPTIONAL_PARTS, type OptionalPart } from './optional';

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'splatlab-optional-parts-'));
  project.provide('optionalPartsDir', dir);
  return () => {
    const seen = new Map<OptionalPart, { ran: number; missing: number }>();
    for (const name of readdirSync(dir)) {
      const r = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { part: OptionalPart; present: boolean };
      const s = seen.get(r.part) ?? { ran: 0, missing: 0 };
      if (r.present) s.ran += 1;
      else s.missing += 1;
      seen.set(r.part, s);
    }
    rmSync(dir, { recursive: true, force: true });
    if (seen.size === 0) return;
    const lines = (Object.keys(OPTIONAL_PARTS) as OptionalPart[])
      .filter((p) => seen.has(p))
      .map((p) => {
        const s = seen.get(p) as { ran: number; missing: number };
        return `  ${p.padEnd(7)} ${s.missing ? `MISSING in ${s.missing} file(s), skipped${process.env.CI === 'true' && OPTIONAL_PARTS[p].ci ? ' (a failure under CI=true)' : ''}` : `ran in ${s.ran} file(s)`}: ${OPTIONAL_PARTS[p].what}`;
      });
    // One summary per project of the config (the Node files' two projects each print theirs).
    process.stdout.write(`\nOptional parts of this run (project ${project.name}):\n${lines.join('\n')}\n`);
  };
}
