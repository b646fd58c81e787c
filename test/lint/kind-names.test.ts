// Kind names stay in the kinds (docs/ARCHITECTURE.md; eslint.config.js kindNameRules): outside
// src/<runtime>/kinds/ a literal, template or regex naming a kind or a task-id prefix is an error;
// inside a kind's folder it is not; SplatBench's own machinery may name SplatBench's kinds only.
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
    ['src/main/studies/probe.ts', "export const isRelation = (id: string): boolean => id.startsWith('relation__');\n"],
    ['src/main/studies/probe.ts', 'export const id = (room: string): string => `search__${room}`;\n'],
    ['src/main/studies/probe.ts', 'export const re = /^search__/;\n'],
    ['src/shared/study/probe.ts', "export const one = (k: string): boolean => k === 'oneshot';\n"],
    ['src/renderer/components/probe.vue', '<script setup lang="ts">\nconst k = \'x\';\n</script>\n<template><p v-if="k === \'relation\'">{{ k }}</p></template>\n'],
    ['src/main/authoring/probe.ts', "export const other = (k: string): boolean => k === 'search';\n"],
    // The Inspect scorers come from the kinds (src/main/kinds/scorer.ts): the file is no longer exempt.
    ['src/main/eval/scorers.ts', "export const kinds = ['search'];\n"],
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
