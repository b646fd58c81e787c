// The paint clock: the onset waits for the image's decode and the next animation frame after the
// draw; the reaction time is the monotonic response minus that onset; wall times sit beside.
import { describe, expect, it } from 'vitest';
import { onsetAfterPaint, respond, type PaintClock } from '../../../src/renderer/study/paint-clock';

function fakeClock(): PaintClock & { t: number; log: string[]; tick(): void } {
  const frames: ((t: number) => void)[] = [];
  const c = {
    t: 100,
    log: [] as string[],
    timeOrigin: 1_700_000_000_000,
    now: () => c.t,
    frame: () => new Promise<number>((resolve) => { c.log.push('frame requested'); frames.push(resolve); }),
    tick() { c.t += 16; for (const f of frames.splice(0)) f(c.t); },
  };
  return c;
}

describe('paint clock', () => {
  it('takes the onset at the first frame after decode and draw, not at the load event', async () => {
    const clock = fakeClock();
    let decoded!: () => void;
    const image = { decode: () => new Promise<void>((r) => { decoded = () => { clock.log.push('decoded'); r(); }; }) } as unknown as HTMLImageElement;
    const pending = onsetAfterPaint(image, () => clock.log.push('drawn'), clock);
    clock.t = 150; // the load event would have been here
    await Promise.resolve();
    expect(clock.log).toEqual([]);
    decoded();
    await new Promise((r) => setTimeout(r, 0));
    expect(clock.log).toEqual(['decoded', 'drawn', 'frame requested']);
    clock.tick();
    const onset = await pending;
    expect(onset).toEqual({ at: 166, wall: 1_700_000_000_166 });
    clock.t = 166 + 742.5;
    const rt = respond(onset, clock);
    expect(rt.rtMs).toBe(742.5);
    expect(rt.response.wall - rt.onset.wall).toBe(742.5);
  });

  it('rejects a broken image instead of making up an onset', async () => {
    const image = { decode: () => Promise.reject(new Error('EncodingError')) } as unknown as HTMLImageElement;
    await expect(onsetAfterPaint(image, () => undefined, fakeClock())).rejects.toThrow('EncodingError');
  });
});
