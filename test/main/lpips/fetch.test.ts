// The weights command without a network: offline and HTTP failures give one clear line, and
// the same path converts when the "download" is served from the fixtures.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALEXNET_URL, LPIPS_ALEX_URL } from '../../../src/main/lpips/convert';
import { DownloadError, download, fetchLpipsWeights } from '../../../src/main/lpips/fetch';
import { loadLpipsWeights } from '../../../src/main/lpips/weights';

const FIX = join(__dirname, '..', '..', 'fixtures', 'metrics', 'pth');
const root = mkdtempSync(join(tmpdir(), 'lpips-fetch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const offline: typeof fetch = () => Promise.reject(new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND download.pytorch.org') }));

describe('download', () => {
  it('explains an offline failure in one line', async () => {
    await expect(download(ALEXNET_URL, offline)).rejects.toThrow(DownloadError);
    await expect(download(ALEXNET_URL, offline)).rejects.toThrow(/could not download https:\/\/download\.pytorch\.org.*ENOTFOUND.*--alexnet/);
  });

  it('reports HTTP errors', async () => {
    const notFound: typeof fetch = () => Promise.resolve(new Response('nope', { status: 404, statusText: 'Not Found' }));
    await expect(download(LPIPS_ALEX_URL, notFound)).rejects.toThrow(/HTTP 404 Not Found/);
  });
});

describe('fetchLpipsWeights', () => {
  it('downloads both files, converts and verifies the folder', async () => {
    const files: Record<string, string> = { [ALEXNET_URL]: 'fake-alexnet.pth', [LPIPS_ALEX_URL]: 'fake-lpips.pth' };
    const served: typeof fetch = (input) => Promise.resolve(new Response(readFileSync(join(FIX, files[String(input)]))));
    const dir = join(root, 'downloaded');
    await fetchLpipsWeights(dir, { fetchImpl: served });
    expect(loadLpipsWeights({ dir }).lin[0][0]).toBe(0);
  });

  it('uses local files without touching the network', async () => {
    const dir = join(root, 'local');
    await fetchLpipsWeights(dir, { alexnetFile: join(FIX, 'fake-alexnet.pth'), lpipsFile: join(FIX, 'fake-lpips.pth'), fetchImpl: offline });
    expect(loadLpipsWeights({ dir }).conv[2].bias.length).toBe(384);
  });
});
