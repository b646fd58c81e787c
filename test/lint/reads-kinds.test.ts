// Which test files the setup registers the lab's kinds for (test/helpers/reads-kinds.ts): the
// registries come from docs/ARCHITECTURE.md's table; a file whose imports reach one of them gets
// them, one that imports only main's lower parts or reaches none does not, and a computed import
// counts as reaching one (docs/DEVELOPING.md, "Test-suite time").
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readsKinds } from '../helpers/reads-kinds';

const at = (path: string): string => join(process.cwd(), path);

const dir = mkdtempSync(join(tmpdir(), 'splatlab-reads-kinds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** src/main from the temporary folder, as a relative import names it. */
const up = relative(dir, at('src/main'));
let made = 0;

/** A test file in the temporary folder with this code. */
function testFile(code: string): string {
  const file = join(dir, `x${made++}.test.ts`);
  writeFileSync(file, code);
  return file;
}

describe('the setup registers the kinds only where a registry can be read', () => {
  it('registers for a file whose imports reach a registry, through other modules', () => {
    expect(readsKinds(at('test/main/roles/roles.test.ts'))).toBe(true);
    expect(readsKinds(at('test/main/mcp/mcp.test.ts'))).toBe(true);
  });

  it('does not for a file of main that reaches none, nor one that imports only main\'s lower tiers', () => {
    expect(readsKinds(at('test/main/transport/door.test.ts'))).toBe(false);
    expect(readsKinds(at('test/main/roles/pin-file.test.ts'))).toBe(false);
    expect(readsKinds(at('test/main/io/png.test.ts'))).toBe(false);
  });

  it('counts a direct import of a registry, a re-export and a literal dynamic import; not an import type', () => {
    expect(readsKinds(testFile(`import { mainKind } from '${up}/kinds/registry';\n`))).toBe(true);
    expect(readsKinds(testFile(`export { kindHandlers } from '${up}/services/kind-handlers';\n`))).toBe(true);
    expect(readsKinds(testFile(`const m = await import('${up}/cli/kind-commands');\n`))).toBe(true);
    expect(readsKinds(testFile(`import type { MainKindModule } from '${up}/kinds/kind';\nimport type { KindHandlers } from '${up}/services/kind-handlers';\n`))).toBe(false);
  });

  it('counts a computed import as reaching one', () => {
    expect(readsKinds(testFile(`// src/main/services\nconst p = 'x';\nawait import(p);\n`))).toBe(true);
  });
});
