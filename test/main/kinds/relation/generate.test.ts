// Generation with progress, cancel and resume; the dataset check; the three exports; the CLI.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DatasetConfigSchema, planDataset } from '../../../../src/shared/kinds/relation/dataset';
import { checkDataset } from '../../../../src/main/kinds/relation/check';
import { exportDataset } from '../../../../src/main/kinds/relation/export';
import { paramsPath, storedSamples } from '../../../../src/main/kinds/relation/files';
import { generateDataset } from '../../../../src/main/kinds/relation/generate';
import { runCli } from '../../cli/run';

const root = mkdtempSync(join(tmpdir(), 'relation-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const config = DatasetConfigSchema.parse({ seed: 2, environments: ['forest', 'city'], counts: { ego: 3, allo: 3 }, samples: 1, allowEmptySplits: true });

describe('generateDataset', () => {
  const dir = join(root, 'ds');
  it('generates every planned sample with progress, stops when cancelled and resumes', async () => {
    const abort = new AbortController();
    const seen: number[] = [];
    const first = await generateDataset(dir, config, {
      signal: abort.signal,
      sheets: false,
      onProgress: (p) => { seen.push(p.done); if (p.generated === 4) abort.abort(); },
    });
    expect(first).toMatchObject({ cancelled: true, generated: 4 });
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(storedSamples(dir)).toHaveLength(4);
    const rest = await generateDataset(dir, config);
    expect(rest).toMatchObject({ cancelled: false, total: 12, generated: 8, skipped: 4 });
    expect(rest.sheets.map((s) => s.split('/').pop())).toEqual(['forest.png', 'city.png']);
    // A sample lost (or half written) is made again, identical to the first time.
    const plan = planDataset(config)[6];
    const before = readFileSync(paramsPath(dir, plan), 'utf8');
    unlinkSync(paramsPath(dir, plan));
    expect(await generateDataset(dir, config, { sheets: false })).toMatchObject({ generated: 1, skipped: 11 });
    expect(readFileSync(paramsPath(dir, plan), 'utf8')).toBe(before);
  });

  it('refuses a folder made with another config', async () => {
    await expect(generateDataset(dir, { ...config, seed: 3 })).rejects.toThrow(/another config/);
  });

  it('passes the dataset check, which catches an edited label', () => {
    expect(checkDataset(dir)).toMatchObject({ samples: 12, missing: 0, problems: [] });
    // Three samples per environment and task: most strata have no val or test sample, recorded.
    expect(checkDataset(dir).warnings.join('\n')).toMatch(/empty split: forest\/tree-rock\/ego\/front: no val and no test sample.*recorded: allowEmptySplits/);
    const plan = planDataset(config)[2];
    const p = JSON.parse(readFileSync(paramsPath(dir, plan), 'utf8'));
    p.relation.label = p.relation.label === 'left' ? 'right' : 'left';
    writeFileSync(paramsPath(dir, plan), JSON.stringify(p));
    expect(checkDataset(dir).problems.join('\n')).toMatch(/stored label/);
  });

  it('exports SpaRRTa folders, an image folder with metadata.jsonl and a CSV index', () => {
    const sp = join(root, 'sparrta');
    expect(exportDataset(dir, sp, 'sparrta')).toEqual({ samples: 12, files: 26 });
    expect(readdirSync(join(sp, 'human', 'forest_2', 'mid-objects')).sort()).toEqual(['img_0001.jpg', 'params_0001.json']);
    expect(readdirSync(join(sp, 'camera', 'city_2', 'mid-objects'))).toContain('params_0001.json');
    const im = join(root, 'imagefolder');
    exportDataset(dir, im, 'imagefolder');
    const rows = readFileSync(join(im, 'metadata.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(rows).toHaveLength(12);
    for (const r of rows) expect(existsSync(join(im, r.file_name))).toBe(true);
    expect(rows.find((r) => r.task === 'allo')).toMatchObject({ observer: 'human' });
    expect(rows.find((r) => r.task === 'ego')).toMatchObject({ observer: 'camera', facing_label: null });
    const csv = join(root, 'csv');
    exportDataset(dir, csv, 'csv');
    const lines = readFileSync(join(csv, 'index.csv'), 'utf8').trim().split('\r\n');
    expect(lines[0]).toBe('id,split,environment,triple,task,reference,target,observer,label,angle_deg,facing_label,image,params');
    expect(lines).toHaveLength(13);
  });
});

describe('splatlab relation', () => {
  it('reports bad options in one line', async () => {
    const r = await runCli('relation', ['generate', '--out', join(root, 'x'), '--env', 'moon']);
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/environments.*known: forest, desert/);
    expect((await runCli('relation', ['export', '--dataset', join(root, 'none'), '--format', 'csv', '--out', join(root, 'y')])).err[0]).toMatch(/not a relation dataset/);
    expect((await runCli('relation', ['frobnicate'])).err[0]).toMatch(/unknown relation command/);
  });
  it('generates and checks a small dataset', async () => {
    const out = join(root, 'cli');
    // One sample per task leaves val and test empty: refused, then recorded with the option.
    const refused = await runCli('relation', ['generate', '--out', out, '--env', 'desert', '--ego', '1', '--allo', '1', '--samples', '1']);
    expect(refused.code).toBe(1);
    expect(refused.err[0]).toMatch(/would have an empty split.*--ego 96, --allo 96.*--allow-empty-splits/);
    expect(existsSync(join(out, 'dataset.json'))).toBe(false);
    const g = await runCli('relation', ['generate', '--out', out, '--env', 'desert', '--ego', '1', '--allo', '1', '--samples', '1', '--allow-empty-splits']);
    expect(g.code).toBe(0);
    expect(g.out.join('\n')).toMatch(/2 samples .* 2 generated/);
    const c = await runCli('relation', ['check', '--dataset', out]);
    expect(c.code).toBe(0);
    expect(c.out.at(-1)).toMatch(/every label agrees.*2 warnings/);
    expect(c.out.join('\n')).toMatch(/warning: empty split: desert\/rock-truck\/ego\/front/);
  });
  it('check fails on a dataset whose val or test split is empty (made before the rule, or the option dropped)', async () => {
    const out = join(root, 'cli');
    const manifest = JSON.parse(readFileSync(join(out, 'dataset.json'), 'utf8'));
    delete manifest.config.allowEmptySplits;
    writeFileSync(join(out, 'dataset.json'), JSON.stringify(manifest));
    const c = await runCli('relation', ['check', '--dataset', out]);
    expect(c.code).toBe(1);
    expect(c.err.join('\n')).toMatch(/empty split: desert\/rock-truck\/allo\/front: no val and no test sample/);
  });
  it('refuses the issue\'s --ego 12 --allo 12 plan, whose every stratum holds one sample', async () => {
    const r = await runCli('relation', ['generate', '--out', join(root, 'twelve'), '--ego', '12', '--allo', '12']);
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/120 \(environment, triple, task, class\) strata would have an empty split/);
  });
});
