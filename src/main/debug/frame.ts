// The frame an opened splat file is shown in (debug.open's `up`, debug.frame): the evidence the
// reader and the cameras beside the file give (resolveUp, as the importer uses), the axis asked
// for, and the scene turned by placeSplats (rotation only: no recentring, no scaling, so the
// debugger's numbers stay in the file's units). Inputs: the SplatFile or the held scene, a
// DebugUp. Output: the DebugFrame and the turned Splats (a worker-pool job, 'debug.turn': a
// million SH3 Gaussians take seconds). Invariant: a turn is never made without the frame line
// saying so; 'detected' with nothing detected shows the file as stored.
import type { DebugFrame, DebugUp } from '../../shared/api/debug';
import { frameLine, relativeTurn, type FrameEvidence } from '../../shared/debug/frame';
import { placeSplats } from '../../shared/formats/placement';
import type { Axis } from '../../shared/formats/types';
import type { Splats } from '../../shared/scene/splats';
import { resolveUp } from '../formats/import';
import type { SplatFile } from '../formats/read';
import type { JobContext } from '../workers/protocol';

export function frameEvidence(file: SplatFile): FrameEvidence {
  const auto = resolveUp(file, 'auto');
  const detected = auto.source === 'guess' ? null : { up: auto.up, line: auto.line };
  return { detected, convention: file.frame.convention, usual: file.frame.up, source: file.frame.source };
}

/** The frame for a choice: 'detected' falls back to the file as stored (+z) when nothing is detected. */
export function frameFor(choice: DebugUp, ev: FrameEvidence): DebugFrame {
  const up: Axis = choice === 'detected' ? (ev.detected?.up ?? '+z') : choice;
  return { chosen: choice, up, detected: ev.detected?.up ?? null, convention: ev.usual, line: frameLine(up, choice !== 'detected', ev) };
}

/** The scene shown with `from` up, turned to be shown with `to` up (the same arrays when no turn is needed). */
export function turnScene(splats: Splats, from: Axis, to: Axis): Splats {
  if (from === to) return splats;
  return placeSplats(splats, { ...relativeTurn(from, to), recentre: 'none', scale: 'metric' }).splats;
}

export interface TurnInput {
  splats: Splats;
  from: Axis;
  to: Axis;
}

/** Job 'debug.turn': turnScene in a worker thread, its arrays handed back without a copy. */
export function turnJob(input: TurnInput, ctx: JobContext): Splats {
  ctx.progress(0, 1, `turning the scene (${input.from} -> ${input.to} as up)`);
  const out = turnScene(input.splats, input.from, input.to);
  ctx.transfer(out.means.buffer, out.scales.buffer, out.quats.buffer, out.colors.buffer, out.opacities.buffer, ...(out.sh ? [out.sh.rest.buffer] : []));
  return out;
}
