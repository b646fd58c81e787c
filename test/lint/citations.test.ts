// Every document a source file cites exists in the repository (docs/DESIGN.md section 8): headers
// cite docs/DESIGN.md or docs/API.md, never a file outside the repo, and every "section N" of
// docs/DESIGN.md they name is a heading there.
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (/\.(ts|vue|wgsl|mjs)$/.test(name)) out.push(p);
  }
  return out;
}

describe('citations', () => {
  const sources = [...files('src'), ...files('test'), ...files('shaders')];
  const design = readFileSync('docs/DESIGN.md', 'utf8');
  const sections = new Set([...design.matchAll(/^## (\d+)\./gm)].map((m) => Number(m[1])));

  it('cites only documents that exist in the repository', () => {
    const missing: string[] = [];
    for (const f of sources) {
      for (const m of readFileSync(f, 'utf8').matchAll(/\b((?:docs\/)?[A-Za-z-]+\.md)\b/g)) {
        const cited = m[1].startsWith('docs/') ? m[1] : m[1] === 'README.md' ? m[1] : `docs/${m[1]}`;
        if (!existsSync(cited)) missing.push(`${f}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names only sections docs/DESIGN.md has', () => {
    const bad: string[] = [];
    for (const f of sources) {
      for (const m of readFileSync(f, 'utf8').matchAll(/DESIGN\.md sections? (\d+)/g)) if (!sections.has(Number(m[1]))) bad.push(`${f}: section ${m[1]}`);
    }
    expect(sections.size).toBeGreaterThanOrEqual(14);
    expect(bad).toEqual([]);
  });
});
