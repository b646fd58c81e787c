// Kind names stay in the kinds (docs/ARCHITECTURE.md; eslint.config.js kindNameRules): outside
// src/<runtime>/kinds/ a literal, template or regex naming a kind or a task-id prefix is an error;
// inside a kind's folder it is not; SplatBench's own machinery may name SplatBench's kinds only.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function kindNameErrors(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax' || m.ruleId === 'vue/no-restricted-syntax').length;
}

describe('kind names outside the kinds', () => {
  const refused: [string, string][] = [
    ['src/main/services/probe.ts', "export const isSearch = (k: string): boolean => k === 'search';\n"],
    ['src/main/study/probe.ts', "export const isRelation = (id: string): boolean => id.startsWith('relation__');\n"],
    ['src/main/study/probe.ts', 'export const id = (room: string): string => `search__${room}`;\n'],
    ['src/main/study/probe.ts', 'export const re = /^search__/;\n'],
    ['src/shared/study/probe.ts', "export const one = (k: string): boolean => k === 'oneshot';\n"],
    ['src/renderer/components/probe.vue', '<script setup lang="ts">\nconst k = \'x\';\n</script>\n<template><p v-if="k === \'relation\'">{{ k }}</p></template>\n'],
    ['src/main/authoring/probe.ts', "export const other = (k: string): boolean => k === 'search';\n"],
    // The Inspect scorers come from the kinds (src/main/kinds/scorer.ts): the file is no longer exempt.
    ['src/main/eval/scorers.ts', "export const kinds = ['search'];\n"],
    // SplatBench's environment lives in its kind folders (issue 39): the env folders name none of its kinds.
    ['src/main/env/probe.ts', "export const isSculpt = (k: string): boolean => k === 'sculpt';\n"],
    ['src/shared/env/probe.ts', "export const one = (k: string): boolean => k === 'oneshot';\n"],
  ];
  it.each(refused)('refuses a kind name in %s: %s', async (file, code) => {
    expect(await kindNameErrors(file, code)).toBeGreaterThan(0);
  });

  const allowed: [string, string][] = [
    ['src/main/kinds/search/probe.ts', "export const isSearch = (k: string): boolean => k === 'search';\n"],
    ['src/shared/kinds/relation/probe.ts', "export const isRelation = (id: string): boolean => id.startsWith('relation__');\n"],
    ['src/main/authoring/probe.ts', "export const re = (k: string): boolean => k === 'reassembly';\n"],
    ['src/main/services/probe.ts', "export const other = (k: string): boolean => k === 'searching';\n"],
  ];
  it.each(allowed)('accepts %s: %s', async (file, code) => {
    expect(await kindNameErrors(file, code)).toBe(0);
  });
});

// No file outside src/<runtime>/kinds/ imports a specific kind (issue 39): the machinery reads the
// kinds' registries. Counted by the rule's own message, so a kind name in the path is not what fires.
async function kindImportErrors(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.message.startsWith('a specific kind imported outside')).length;
}

describe('kind imports outside the kinds', () => {
  const refused: [string, string][] = [
    ['src/main/services/probe.ts', "import { createSearchHandlers } from '../kinds/search/service/handlers';\nexport const h = createSearchHandlers;\n"],
    ['src/main/eval/probe.ts', "export { relationScorer } from '../kinds/relation/study/scorer';\n"],
    ['src/main/episodes/probe.ts', "export const m = () => import('../kinds/splatbench/kind');\n"],
    ['src/shared/api/probe.ts', "import type { SearchTaskSpec } from '../kinds/search/kind';\nexport type S = SearchTaskSpec;\n"],
    ['src/main/env/probe.ts', "export * from '../../shared/kinds/splatbench/kind';\n"],
    // SplatBench's images, their pool jobs and its footer are its own (issue 39): the machinery that drew them is refused them.
    ['src/main/services/probe.ts', "import { poolImages } from '../kinds/splatbench/images-pool';\nexport const p = poolImages;\n"],
    ['src/main/cli/commands/probe.ts', "import type { EnvImages } from '../../kinds/splatbench/images';\nexport type I = EnvImages;\n"],
    ['src/main/threads/jobs/probe.ts', "export { referenceSheetJob } from '../../kinds/splatbench/image-jobs';\n"],
    ['src/shared/env/probe.ts', "import { withFooter } from '../kinds/splatbench/format';\nexport const w = withFooter;\n"],
    ['src/renderer/components/probe.vue', '<script setup lang="ts">\nimport AnnotateView from \'../kinds/search/AnnotateView.vue\';\n</script>\n<template><AnnotateView /></template>\n'],
  ];
  it.each(refused)('refuses in %s: %s', async (file, code) => {
    expect(await kindImportErrors(file, code)).toBe(1);
  });

  const allowed: [string, string][] = [
    ['src/main/services/probe.ts', "import { mainKind } from '../kinds/registry';\nexport const m = mainKind;\n"],
    ['src/main/kinds/manifests.ts', "import { searchManifest } from './search/manifest';\nexport const m = searchManifest;\n"],
    ['src/shared/kinds/api.ts', "export { relationMethods } from './relation/api';\n"],
    ['src/main/services/probe.ts', "import { x } from '../kinds/searching';\nexport const y = x;\n"],
  ];
  it.each(allowed)('accepts %s: %s', async (file, code) => {
    expect(await kindImportErrors(file, code)).toBe(0);
  });

  it('finds none in the sources (every import form, read from the files: the lint run covers the same)', () => {
    const files = (readdirSync('src', { recursive: true }) as string[]).map((f) => join('src', f)).filter((f) => /\.(ts|vue)$/.test(f) && !/^src[\\/]\w+[\\/]kinds[\\/]/.test(f));
    const specifier = /(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"]+)['"]/g;
    const hits = files.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(specifier)].filter((m) => /kinds\/(splatbench|search|relation)(\/|$)/.test(m[1])).map((m) => `${f}: ${m[1]}`));
    expect(hits).toEqual([]);
  });
});
