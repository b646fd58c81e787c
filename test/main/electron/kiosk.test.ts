// The kiosk option of the Electron window as pure predicates (the Electron binary is absent):
// asked for by flag or env, full screen with no menu, and a quit refused while the window's
// screen belongs to a participant (it needs the unlock first).
import { describe, expect, it } from 'vitest';
import { kioskRequested, kioskWindowOptions, menuShown, quitAllowed } from '../../../src/main/electron/policy';

describe('kiosk window', () => {
  it('is asked for with --kiosk or SPLATLAB_KIOSK=1 only', () => {
    expect(kioskRequested(['electron', '.', '--kiosk'], {})).toBe(true);
    expect(kioskRequested(['electron', '.'], { SPLATLAB_KIOSK: '1' })).toBe(true);
    expect(kioskRequested(['electron', '.'], { SPLATLAB_KIOSK: '0' })).toBe(false);
    expect(kioskRequested(['electron', '.', '--kiosky'], {})).toBe(false);
  });

  it('is full screen without a menu; a plain window is neither', () => {
    expect(kioskWindowOptions(true)).toMatchObject({ kiosk: true, fullscreen: true, autoHideMenuBar: true, minimizable: false });
    expect(menuShown(true)).toBe(false);
    expect(kioskWindowOptions(false)).toMatchObject({ kiosk: false, fullscreen: false, autoHideMenuBar: false, minimizable: true });
    expect(menuShown(false)).toBe(true);
  });

  it('refuses a quit while a participant holds the screen, allows it once unlocked', () => {
    expect(quitAllowed(true, 'participant')).toBe(false);
    expect(quitAllowed(true, 'process')).toBe(false);
    expect(quitAllowed(true, 'experimenter')).toBe(true);
    expect(quitAllowed(false, 'participant')).toBe(true);
  });
});
