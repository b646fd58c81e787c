// Electron fuses applied by the build (issue 29 item 10), tested against the built configuration
// without the Electron binary: electron-builder.config.mjs packs out/ into an asar and names the
// afterPack hook; the hook, run with an afterPack context on a stand-in binary (a file holding the
// fuse wire as Electron's does: sentinel, version, length, one byte per fuse), leaves every fuse
// of src/main/electron/fuses.ts set and refuses a binary without a fuse wire; scripts/flip-fuses
// uses the same code.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FUSES } from '../../../src/main/electron/fuses';

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** The order of Electron's V1 fuse wire. */
const WIRE = ['RunAsNode', 'EnableCookieEncryption', 'EnableNodeOptionsEnvironmentVariable', 'EnableNodeCliInspectArguments', 'EnableEmbeddedAsarIntegrityValidation', 'OnlyLoadAppFromAsar', 'LoadBrowserProcessSpecificV8Snapshot', 'GrantFileProtocolExtraPrivileges'];

/** A stand-in binary: padding, then the fuse wire with every fuse in Electron's default state. */
function fakeElectron(path: string): void {
  const defaults = [1, 0, 1, 1, 0, 0, 0, 1].map((on) => (on ? 0x31 : 0x30));
  writeFileSync(path, Buffer.concat([Buffer.alloc(4096, 7), Buffer.from(SENTINEL, 'latin1'), Buffer.from([1, WIRE.length, ...defaults]), Buffer.alloc(1024, 9)]));
}

function wireOf(path: string): Record<string, boolean> {
  const bytes = readFileSync(path);
  const at = bytes.indexOf(SENTINEL) + SENTINEL.length;
  return Object.fromEntries(WIRE.map((name, i) => [name, bytes[at + 2 + i] === 0x31]));
}

interface BuilderConfig {
  asar: boolean;
  files: string[];
  afterPack: string;
  asarUnpack: string[];
}
type AfterPack = (context: unknown) => Promise<void>;

const root = resolve(__dirname, '../../..');
const load = async <T>(rel: string): Promise<T> => ((await import(pathToFileURL(join(root, rel)).href)) as { default: T }).default;

describe('the packaging configuration', () => {
  it('packs the built app into an asar and runs the fuse hook after packing', async () => {
    const config = await load<BuilderConfig>('electron-builder.config.mjs');
    expect(config.asar).toBe(true);
    expect(config.files).toContain('out/**/*');
    expect(config.files.some((f) => f.startsWith('src'))).toBe(false);
    expect(config.asarUnpack).toContain('**/*.node');
    expect(typeof (await load<AfterPack>(config.afterPack))).toBe('function');
  });

  it('the hook sets every fuse of fuses.ts on the packed Linux binary', async () => {
    const config = await load<BuilderConfig>('electron-builder.config.mjs');
    const afterPack = await load<AfterPack>(config.afterPack);
    const out = mkdtempSync(join(tmpdir(), 'splatlab-pack-'));
    fakeElectron(join(out, 'splatlab'));
    expect(wireOf(join(out, 'splatlab')).RunAsNode).toBe(true);
    await afterPack({ appOutDir: out, electronPlatformName: 'linux', arch: 1, packager: { executableName: 'splatlab', appInfo: { productFilename: 'SplatLab' } } });
    expect(wireOf(join(out, 'splatlab'))).toEqual(FUSES);
    expect(Object.keys(FUSES).sort()).toEqual([...WIRE].sort());
  });

  it('the hook finds the framework inside a macOS .app, and refuses a binary without a fuse wire', async () => {
    const config = await load<BuilderConfig>('electron-builder.config.mjs');
    const afterPack = await load<AfterPack>(config.afterPack);
    const out = mkdtempSync(join(tmpdir(), 'splatlab-pack-mac-'));
    const framework = join(out, 'SplatLab.app', 'Contents', 'Frameworks', 'Electron Framework.framework');
    mkdirSync(framework, { recursive: true });
    fakeElectron(join(framework, 'Electron Framework'));
    await afterPack({ appOutDir: out, electronPlatformName: 'darwin', arch: 1, packager: { executableName: 'SplatLab', appInfo: { productFilename: 'SplatLab' } } });
    expect(wireOf(join(framework, 'Electron Framework'))).toEqual(FUSES);

    const bare = mkdtempSync(join(tmpdir(), 'splatlab-pack-bare-'));
    writeFileSync(join(bare, 'splatlab'), Buffer.alloc(2048));
    await expect(afterPack({ appOutDir: bare, electronPlatformName: 'linux', arch: 1, packager: { executableName: 'splatlab', appInfo: { productFilename: 'SplatLab' } } })).rejects.toThrow(/Could not find sentinel/);
  });
});
