// The Electron checklist as predicates (the binary is absent on build machines): external-link
// allow-list, the splatlab:// app scheme, navigation, permissions and devices refused, the IPC
// check of the sending frame, and the fuses packaging sets (names checked against @electron/fuses).
import { FuseV1Options } from '@electron/fuses';
import { describe, expect, it } from 'vitest';
import { FUSES } from '../../../src/main/electron/fuses';
import { APP_INDEX_URL, appRequestPath, deviceAllowed, externalLinkAllowed, navigationAllowed, permissionAllowed, trustedSender } from '../../../src/main/electron/policy';

describe('Electron policy', () => {
  it('opens only https links to allow-listed hosts', () => {
    expect(externalLinkAllowed('https://github.com/some/repo')).toBe(true);
    for (const url of ['https://evil.example/', 'http://github.com/', 'https://github.com.evil.example/', 'https://user:pw@github.com/', 'https://github.com:8443/', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
      expect(externalLinkAllowed(url), url).toBe(false);
    }
  });

  it('serves the app from splatlab://app/ only, without traversal', () => {
    expect(appRequestPath(APP_INDEX_URL)).toBe('index.html');
    expect(appRequestPath('splatlab://app/')).toBe('index.html');
    expect(appRequestPath('splatlab://app/assets/main.js')).toBe('assets/main.js');
    expect(appRequestPath('splatlab://app/%2e%2e/secret')).toBe('secret'); // the URL parser folds it inside the root
    for (const url of ['splatlab://other/index.html', 'file:///index.html', 'splatlab://app/a/%5c..%5cb', 'splatlab://app/%E0%A4%A', 'splatlab://app/a%00b']) {
      expect(appRequestPath(url), url).toBeNull();
    }
  });

  it('keeps navigation on the app origin', () => {
    expect(navigationAllowed('splatlab://app/index.html#/play')).toBe(true);
    expect(navigationAllowed('https://github.com/')).toBe(false);
    expect(navigationAllowed('file:///tmp/index.html')).toBe(false);
  });

  it('refuses every permission and device', () => {
    for (const p of ['media', 'notifications', 'clipboard-read', 'geolocation', 'hid', 'serial', 'usb']) expect(permissionAllowed(p)).toBe(false);
    for (const d of ['hid', 'serial', 'usb', 'bluetooth']) expect(deviceAllowed(d)).toBe(false);
  });

  it('answers IPC only from the main frame of our window showing the app', () => {
    const ok = { webContentsId: 7, frame: { url: APP_INDEX_URL, isMainFrame: true } };
    expect(trustedSender(ok, 7)).toBe(true);
    expect(trustedSender({ ...ok, webContentsId: 8 }, 7)).toBe(false); // another window
    expect(trustedSender({ ...ok, frame: { url: APP_INDEX_URL, isMainFrame: false } }, 7)).toBe(false); // an iframe
    expect(trustedSender({ ...ok, frame: { url: 'https://evil.example/', isMainFrame: true } }, 7)).toBe(false); // navigated away
    expect(trustedSender({ ...ok, frame: null }, 7)).toBe(false); // frame gone
  });

  it('sets every fuse, with the dangerous ones off', () => {
    const names = Object.keys(FuseV1Options).filter((k) => Number.isNaN(Number(k)));
    expect(Object.keys(FUSES).sort()).toEqual(names.sort());
    expect(FUSES).toMatchObject({ RunAsNode: false, EnableNodeOptionsEnvironmentVariable: false, EnableNodeCliInspectArguments: false, OnlyLoadAppFromAsar: true, EnableEmbeddedAsarIntegrityValidation: true, GrantFileProtocolExtraPrivileges: false });
  });
});
