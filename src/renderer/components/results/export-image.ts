// Exports a chart's SVG text as a PNG file: the SVG is drawn into a canvas at twice its size
// (sharp in slides) through an <img> of a blob URL, then saved like the CSV downloads.
// Input: SVG text with width/height attributes. Output: a download. Invariant: the SVG is our
// own generated text (no external references), so the canvas is never tainted.
import { downloadBlob } from './download';

export async function downloadSvgAsPng(filename: string, svg: string, scale = 2): Promise<void> {
  const w = Number(/width="(\d+)"/.exec(svg)?.[1] ?? 640);
  const h = Number(/height="(\d+)"/.exec(svg)?.[1] ?? 400);
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error('the chart could not be drawn as an image'));
      img.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = w * scale;
    canvas.height = h * scale;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas for the PNG export');
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) throw new Error('the PNG export failed');
    downloadBlob(filename, blob);
  } finally {
    URL.revokeObjectURL(url);
  }
}
