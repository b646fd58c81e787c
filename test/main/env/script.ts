// A scripted episode used by the kill/resume test: edits, renders, invalid calls and a submit.
import type { ToolCall } from '../../../src/shared/env/step';

export function scriptedCalls(): ToolCall[] {
  const calls: ToolCall[] = [];
  for (let k = 0; k < 6; k++) {
    calls.push({
      tool: 'add_gaussians',
      args: { gaussians: Array.from({ length: 4 }, (_, i) => ({ pos: [0.1 * i - 0.15, 0.05 * k - 0.1, 0.1 * k - 0.2], color: [0.2 + 0.1 * k, 0.3, 0.6], scale: [0.06, 0.04, 0.05], rot: [10 * k, 0, 5 * i], group: k % 2 ? 'odd' : 'even' })) },
    });
    calls.push({ tool: 'edit_gaussians', args: { gaussians: [{ id: 4 * k, opacity: 0.5, color: '#a0b0c0' }] } });
    if (k === 2) calls.push({ tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: '#cacc cb' }] } });
    if (k % 2 === 1) calls.push({ tool: 'render_views', args: { views: [0, 'V6'] } });
    calls.push({ tool: 'transform_group', args: { group: k % 2 ? 'odd' : 'even', rotate_deg: 15, translate: [0.01, 0, 0], scale: [1.05, 1, 0.98] } });
  }
  calls.push({ tool: 'delete_gaussians', args: { ids: [1, 2, 3] } });
  calls.push({ tool: 'render_angle', args: { azimuth: 45, elevation: 30 } });
  calls.push({ tool: 'submit' });
  return calls;
}
