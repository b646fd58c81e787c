// The one error model (docs/AGENTS.md "Outcomes"): whether a call failed is data (StepInfo's
// outcome), so no code outside the one formatter (src/shared/env/outcome.ts) may look at a result's
// text to decide it. This greps every source file for text sniffing of error prefixes and proves
// the pattern catches the forms it is meant to catch.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../..');
const FORMATTER = 'src/shared/env/outcome.ts';

/** `.startsWith('ERROR')`, `includes("Error:")`, `/^ERROR/.test(...)`, `text.slice(0, 5) === 'ERROR'`, ... */
const SNIFFING = [
  /\.(startsWith|endsWith|includes|indexOf|match|search)\(\s*['"`/]\^?\\?(ERROR|Error|error:)/,
  /\/\^?\s*(ERROR|Error)[^/\n]*\/[gimsuy]*\.(test|exec)\(/,
  /[=!]==?\s*['"`](ERROR|Error)[:'"`]/,
  /\.(startsWith|includes)\(\s*ERROR_PREFIX/,
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts|vue|mjs)$/.test(name) ? [path] : [];
  });
}

function sniffs(code: string): string[] {
  return code.split('\n').filter((line) => SNIFFING.some((re) => re.test(line)));
}

describe('no result-text sniffing for errors', () => {
  it('the pattern catches the forms it is meant to catch', () => {
    for (const line of [
      "...(r.text.startsWith('ERROR') ? { is_error: true } : {})",
      'if (out.text.includes("Error:")) bad++;',
      'const failed = /^ERROR/.test(text);',
      "if (text.slice(0, 6) === 'ERROR:') return;",
      'if (text.startsWith(ERROR_PREFIX)) return;',
    ]) expect(sniffs(line), line).toHaveLength(1);
    expect(sniffs("return errorText(`nothing was ${verb}.`);\nconst body = 'ERROR: the episode is over';")).toEqual([]);
  });

  it(`finds none in src outside ${FORMATTER}`, () => {
    const found = sources(join(ROOT, 'src'))
      .map((p) => relative(ROOT, p).split('\\').join('/'))
      .filter((p) => p !== FORMATTER)
      .flatMap((p) => sniffs(readFileSync(join(ROOT, p), 'utf8')).map((line) => `${p}: ${line.trim()}`));
    expect(found).toEqual([]);
  });
});
