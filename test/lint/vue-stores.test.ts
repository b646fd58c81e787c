// Components reach the API through stores (issue 23 item 4; docs/ARCHITECTURE.md): no .vue file
// imports the API client at run time (eslint.config.js, @typescript-eslint/no-restricted-imports;
// type imports are allowed) and no .vue file calls LabApi itself (`api.call(...)`, `api.on(...)`):
// it takes the handle from stores/connection.ts and passes it to a store action.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function clientImportErrors(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').length;
}

const vue = (script: string): string => `<script setup lang="ts">\n${script}</script>\n<template><p>x</p></template>\n`;

function vueFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? vueFiles(path) : name.endsWith('.vue') ? [path] : [];
  });
}

/** The script of a .vue file without comments. */
const scriptOf = (sfc: string): string => [...sfc.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n').replace(/\/\/.*$/gm, '');
/** A call on the LabApi handle itself (however the component names it: api, lab). */
export const callsApi = (script: string): boolean => /\b(api|lab|labApi)[!?]?\.(call|on)\s*\(/.test(script);

describe('components reach the API through stores', () => {
  it('refuses a run-time import of the API client from a .vue file', async () => {
    expect(await clientImportErrors('src/renderer/components/Probe.vue', vue("import { LAB_KEY } from '../api/client';\nconsole.info(LAB_KEY);\n"))).toBe(1);
    expect(await clientImportErrors('src/renderer/kinds/search/Probe.vue', vue("import { LINK_KEY } from '../../api/client';\nconsole.info(LINK_KEY);\n"))).toBe(1);
    expect(await clientImportErrors('src/renderer/views/Probe.vue', vue("import { createLink } from '../api/link';\nconsole.info(createLink);\n"))).toBe(1);
  });

  it('accepts type imports from the client and imports of the connection store', async () => {
    expect(await clientImportErrors('src/renderer/components/Probe.vue', vue("import type { Link } from '../api/link';\nconst l: Link | null = null;\nconsole.info(l);\n"))).toBe(0);
    expect(await clientImportErrors('src/renderer/components/Probe.vue', vue("import { useLabApi } from '../stores/connection';\nconsole.info(useLabApi);\n"))).toBe(0);
    expect(await clientImportErrors('src/renderer/stores/probe.ts', "import { LAB_KEY } from '../api/client';\nexport const k = LAB_KEY;\n")).toBe(0);
  });

  it('no .vue file calls LabApi directly', () => {
    const direct = vueFiles('src/renderer').filter((p) => callsApi(scriptOf(readFileSync(p, 'utf8'))));
    expect(direct).toEqual([]);
  });

  it('the scan sees a direct call and passes a store action', () => {
    expect(callsApi("const r = await api.call('search.results', { studyId });")).toBe(true);
    expect(callsApi("const off = api?.on('progress', f);")).toBe(true);
    expect(callsApi("void lab.call('study.session.meta', meta);")).toBe(true);
    expect(callsApi('const r = await search.results(api, studyId);')).toBe(false);
    expect(callsApi("const r = await episode.call(api, 'answer', args);")).toBe(false);
  });
});
