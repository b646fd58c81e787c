// The home's stable session token: made once with mode 0600, reused by every later serve,
// tightened when the file was loosened, replaced on request or when the file holds garbage.
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeToken, lastServePort, rememberServePort, tokenPath } from '../../../src/main/io/home';

const home = () => join(mkdtempSync(join(tmpdir(), 'splatlab-home-')), 'lab');
const mode = (path: string) => statSync(path).mode & 0o777;

describe('homeToken', () => {
  it('is made once, owner-only, and the same on every later call', () => {
    const h = home();
    const token = homeToken(h);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mode(tokenPath(h))).toBe(0o600);
    expect(readFileSync(tokenPath(h), 'utf8').trim()).toBe(token);
    expect(homeToken(h)).toBe(token);
  });

  it('tightens a loosened file, replaces garbage, and makes a new one when asked', () => {
    const h = home();
    const token = homeToken(h);
    chmodSync(tokenPath(h), 0o644);
    expect(homeToken(h)).toBe(token);
    expect(mode(tokenPath(h))).toBe(0o600);
    const fresh = homeToken(h, true);
    expect(fresh).not.toBe(token);
    expect(homeToken(h)).toBe(fresh);
    writeFileSync(tokenPath(h), 'short\n', { mode: 0o666 });
    chmodSync(tokenPath(h), 0o666);
    const remade = homeToken(h);
    expect(remade).not.toBe('short');
    expect(mode(tokenPath(h))).toBe(0o600);
  });

  it('remembers the last serve port', () => {
    const h = home();
    expect(lastServePort(h)).toBeNull();
    rememberServePort(h, 41234);
    expect(lastServePort(h)).toBe(41234);
  });

  it('says in one plain line, without a path, that a home it cannot write is unusable (issue 38)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'splatlab-home-file-')), 'a-file');
    writeFileSync(file, '');
    const h = join(file, 'home'); // a home under a file: as unwritable as a read-only disk
    expect(() => homeToken(h)).toThrow(/^the lab home cannot be written \(not a directory\): set SPLATLAB_HOME to a folder this user can write$/);
    expect(() => rememberServePort(h, 1)).toThrow(/^the lab home cannot be written/);
  });
});
