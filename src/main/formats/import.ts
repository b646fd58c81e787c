// Import of a capture: readSplatFile, then the up axis resolved (chosen by the user, written in
// the file, detected from cameras beside it, or the format's usual guess, said as a guess), then
// placeSplats. Inputs: a path and options. Output: the file, the placed scene and one line per
// decision. Invariant: the up axis and every placement step appear in `lines`; nothing silent.
import { placeSplats, type Placed, type Placement } from '../../shared/formats/placement';
import type { Axis } from '../../shared/formats/types';
import { detectUpFromCameras } from './cameras';
import { readSplatFile, type ReadSplatOptions, type SplatFile } from './read';

export type UpChoice = Axis | 'auto';

export interface ResolvedUp {
  up: Axis;
  source: 'chosen' | 'file' | 'cameras' | 'guess';
  line: string;
}

/** Where up comes from, in the order: the user's choice, the file, cameras beside it, the format's guess. */
export function resolveUp(file: SplatFile, choice: UpChoice = 'auto'): ResolvedUp {
  if (choice !== 'auto') return { up: choice, source: 'chosen', line: `up axis ${choice} (chosen)` };
  if (file.frame.source === 'file' && file.frame.up) return { up: file.frame.up, source: 'file', line: `up axis ${file.frame.up} (written in the file: ${file.frame.convention})` };
  const cams = detectUpFromCameras(file.path);
  if (cams) return { up: cams.up, source: 'cameras', line: `up axis ${cams.up} (detected from ${cams.cameras} cameras in ${cams.file}, mean camera up ${cams.offAxisDeg.toFixed(1)} deg off the axis)` };
  const up = file.frame.up ?? '+z';
  return { up, source: 'guess', line: `up axis ${up} is a guess (${file.frame.convention}; no cameras found beside the file): check the preview and choose another if the scene lies on its side` };
}

export interface ImportSplatOptions extends ReadSplatOptions {
  up?: UpChoice;
  placement: Omit<Placement, 'up'>;
}

export interface ImportedSplats {
  file: SplatFile;
  up: ResolvedUp;
  placed: Placed;
  lines: string[];
}

/** `read`: the decoder (the lab: the worker pool's, workers/read-splat.ts); default readSplatFile here. */
export async function importSplatFile(path: string, opts: ImportSplatOptions, read: (path: string, opts: ReadSplatOptions) => Promise<SplatFile> = readSplatFile): Promise<ImportedSplats> {
  const { up: _up, placement: _placement, ...readOptions } = opts;
  const file = await read(path, readOptions);
  const up = resolveUp(file, opts.up);
  const placed = placeSplats(file.splats, { ...opts.placement, up: up.up });
  const lines = [`read ${file.splats.count} Gaussians: ${file.detected}`, up.line, ...placed.report.slice(1), ...file.warnings];
  return { file, up, placed, lines };
}
