// The study PIN is stored salted and hashed in a file only the lab's user can read (mode 0600), and
// only for a study that exists, and can be replaced (survivors of the roles mutation run, docs/MUTATION.md).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Roles } from '../../../src/main/services/roles';

const home = mkdtempSync(join(tmpdir(), 'splatlab-pin-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('the PIN file', () => {
  it('is private to the lab user and holds no PIN in clear', () => {
    mkdirSync(join(home, 'studies', 'pilot'), { recursive: true });
    writeFileSync(join(home, 'studies', 'pilot', 'study.json'), '{}');
    new Roles(home).setPin('pilot', '4321');
    const file = join(home, 'unlock', 'pilot.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('4321');
    expect(Object.keys(JSON.parse(text) as object).sort()).toEqual(['hash', 'salt']);
  });

  it('can be set again (a new PIN replaces the old one)', () => {
    const roles = new Roles(home);
    roles.setPin('pilot', '1111');
    const before = readFileSync(join(home, 'unlock', 'pilot.json'), 'utf8');
    roles.setPin('pilot', '2222');
    expect(readFileSync(join(home, 'unlock', 'pilot.json'), 'utf8')).not.toBe(before);
  });

  it('is refused for a study that does not exist', () => {
    expect(() => new Roles(home).setPin('ghost', '4321')).toThrow("no study 'ghost'");
  });
});
