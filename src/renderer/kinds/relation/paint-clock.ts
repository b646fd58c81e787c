// The stimulus clock of a relation trial: onset is the first animation frame after the image
// is decoded and made visible (the frame that paints it), so a reaction time never includes
// decoding or a frame not yet drawn. Input: the image element and a callback that reveals it.
// Output: the onset on the performance.now() clock. Invariant: a response is timed with
// performance.now() on the same clock, so rt = response - onset.
export async function paintOnset(img: HTMLImageElement, reveal: () => void): Promise<number> {
  // decode() resolves once the pixels are ready; a broken image still gets an onset (when shown).
  await img.decode().catch(() => undefined);
  reveal();
  return new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now())));
}
