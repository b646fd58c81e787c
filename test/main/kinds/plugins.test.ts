// SPLATLAB_KINDS (src/main/kinds/plugins.ts, folders.ts, vite-kinds.ts): the folder list, a
// folder missing a half refused with one line naming it, a family registered twice refused, and
// the renderer build's virtual module importing each folder's shared and renderer halves.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { kindFolders, kindHalf } from '../../../src/main/kinds/folders';
import type { MainKindManifest } from '../../../src/main/kinds/manifest';
import { registerMainManifest } from '../../../src/main/kinds/manifests';
import { loadKindPlugins } from '../../../src/main/kinds/plugins';
import { mainKind } from '../../../src/main/kinds/registry';
import { splatbenchMain } from '../../../src/main/kinds/splatbench/kind';
import { splatScorer } from '../../../src/main/kinds/splatbench/study/scorer';
import { studyKinds } from '../../../src/main/study/kind-studies';
import { kindsModuleSource } from '../../../src/main/kinds/vite-kinds';
import { kindModule, registerKind } from '../../../src/shared/kinds/registry';
import { toolSpecsOf } from '../../../src/shared/kinds/kind';
import { splatbenchKind } from '../../../src/shared/kinds/splatbench/kind';
import { BRIGHTEST_KIND_DIR } from '../../fixtures/kinds/brightest/tasks';

describe('SPLATLAB_KINDS', () => {
  it('lists each folder once, absolute, and nothing without the variable', () => {
    expect(kindFolders({})).toEqual([]);
    expect(kindFolders({ SPLATLAB_KINDS: ['a', ' a ', 'b', ''].join(delimiter) })).toEqual([join(process.cwd(), 'a'), join(process.cwd(), 'b')]);
  });

  it('refuses a folder missing a half with one line naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-kind-'));
    mkdirSync(join(dir, 'shared'));
    writeFileSync(join(dir, 'shared', 'kind.ts'), 'export default {};\n');
    expect(() => kindHalf(dir, 'main')).toThrow(`SPLATLAB_KINDS: ${dir} has no main/manifest.ts`);
    await expect(loadKindPlugins({ SPLATLAB_KINDS: dir })).rejects.toThrow(/has no main\/manifest\.ts/);
  });

  it('refuses a family or kind that is served already', () => {
    expect(() => registerKind(splatbenchKind)).toThrow(/family 'splatbench' is already registered/);
    expect(() => registerKind({ ...splatbenchKind, family: 'other' })).toThrow(/task kind 'sculpt' is already served/);
  });

  it('refuses a main manifest without a scorer, or with another family\'s, at registration and registers nothing', () => {
    const module = { ...splatbenchMain, family: 'nothing' };
    expect(() => registerMainManifest({ module } as unknown as MainKindManifest)).toThrow("kind 'nothing' supplies no Inspect scorer (src/main/kinds/scorer.ts): every kind needs one");
    expect(() => registerMainManifest({ module, scorer: splatScorer })).toThrow("kind 'nothing': its scorer 'splatscore' scores family 'splatbench'");
    const scorer = { ...splatScorer, name: 'nothing_score', family: 'nothing' };
    expect(() => registerMainManifest({ module: { ...module, rules: undefined } as unknown as typeof module, scorer })).toThrow("kind 'nothing': its main module has no rules() (src/main/kinds/kind.ts MainKindModule)");
    expect(() => registerMainManifest({ module, scorer, studyPart: { family: 'nothing' } as never })).toThrow("kind 'nothing': its study part has no exportTables() (src/main/study/kind-part.ts)");
    expect(() => registerMainManifest({ module, scorer, commands: { nothing: { summary: '' } as never } })).toThrow("kind 'nothing': its command 'nothing' needs a summary and a load() (src/main/cli/command.ts CommandEntry)");
    expect(() => registerMainManifest({ module, scorer })).toThrow("kind 'nothing': its shared half is not registered (src/shared/kinds/registry.ts registerKind comes first)");
    expect(() => mainKind({ spec: { task_id: 'x', kind: 'nothing' }, dir: '' })).toThrow();
    expect(studyKinds().map((k) => k.family)).not.toContain('nothing');
  });

  it('refuses a shared module missing what every kind declares, and derives omitted tool specs from its tools', () => {
    const { toolSpecs: _specs, ...bare } = splatbenchKind;
    expect(() => registerKind({ ...bare, family: 'bare', kinds: ['bare'], giveUp: { tool: 'nope', args: {} } })).toThrow("task-kind module 'bare' declares no give-up call among its tools (giveUp.tool 'nope')");
    expect(() => registerKind({ ...bare, family: 'bare', kinds: ['bare'], score: { unit: '', what: '' } })).toThrow("task-kind module 'bare' declares no score unit");
    expect(() => kindModule('bare')).toThrow("no task-kind module serves kind 'bare'");
    registerKind({ ...bare, family: 'bare', kinds: ['bare'] });
    expect(kindModule('bare').toolSpecs()).toEqual(toolSpecsOf(splatbenchKind.tools));
    expect(kindModule('bare').toolSpecs().map((t) => t.name)).toEqual(splatbenchKind.toolSpecs().map((t) => t.name));
  });

  it('bundles each folder\'s shared and renderer halves for the renderer build', () => {
    const src = kindsModuleSource([BRIGHTEST_KIND_DIR]);
    expect(src).toContain(JSON.stringify(join(BRIGHTEST_KIND_DIR, 'shared', 'kind.ts')));
    expect(src).toContain(JSON.stringify(join(BRIGHTEST_KIND_DIR, 'renderer', 'kind.ts')));
    expect(src).toContain('export default [{ shared: shared0, renderer: renderer0 }];');
    expect(kindsModuleSource([])).toContain('export default [];');
  });
});
