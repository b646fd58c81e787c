// `node --import tsx test/mutation/summary.ts reports/mutation/NAME-PERCENT.json`: the counts and the
// mutation score of one Stryker JSON report (docs/MUTATION.md), then every survivor and uncovered
// mutant as `file:line mutator -> replacement`. Score = (killed + timeout) / (all - ignored - errors),
// Stryker's own definition; the covered score leaves the no-coverage mutants out.
import { readFileSync } from 'node:fs';

interface ReportMutant {
  status: string;
  mutatorName: string;
  replacement?: string;
  location: { start: { line: number } };
}
interface Report {
  files: Record<string, { mutants: ReportMutant[] }>;
}

const file = process.argv[2];
if (!file) {
  console.error('usage: summary.ts reports/mutation/NAME-PERCENT.json');
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
const counts = new Map<string, number>();
const open: string[] = [];
for (const [name, f] of Object.entries(report.files)) {
  for (const m of f.mutants) {
    counts.set(m.status, (counts.get(m.status) ?? 0) + 1);
    if (m.status === 'Survived' || m.status === 'NoCoverage') open.push(`${m.status} ${name}:${m.location.start.line} ${m.mutatorName} -> ${(m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80)}`);
  }
}
const n = (s: string): number => counts.get(s) ?? 0;
const detected = n('Killed') + n('Timeout');
const valid = detected + n('Survived') + n('NoCoverage');
const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)} %`);
console.log(`killed ${n('Killed')}, timeout ${n('Timeout')}, survived ${n('Survived')}, no coverage ${n('NoCoverage')}, ignored ${n('Ignored')}, errors ${n('CompileError') + n('RuntimeError')}`);
console.log(`score ${pct(detected, valid)} (${detected}/${valid}), covered ${pct(detected, valid - n('NoCoverage'))}`);
for (const line of open.sort()) console.log(line);
