// Every `splatlab` subcommand with its one-line summary, in the order `--help` lists them.
// Commands load lazily so `--help` and light commands never pay for Dawn or the rasterizer.
import type { CliCommand } from '../command';

export interface CommandEntry {
  summary: string;
  load: () => Promise<CliCommand>;
}

export const COMMANDS: Record<string, CommandEntry> = {
  start: { summary: 'open the lab (Electron window, or the browser UI when no window can open)', load: async () => (await import('./start')).command },
  serve: { summary: 'serve the lab UI on a loopback URL (browser mode)', load: async () => (await import('./serve')).command },
  doctor: { summary: 'report Node, the GPU path, Electron, data folders and tasks found', load: async () => (await import('./doctor')).command },
  render: { summary: 'render a scene file from a camera to PNG (GPU or CPU reference)', load: async () => (await import('./render')).command },
  metrics: { summary: 'PSNR, SSIM, LPIPS and silhouette IoU of two PNG images', load: async () => (await import('./metrics')).command },
  play: { summary: 'play an episode from a JSONL file of {tool, args} calls, logging the trajectory', load: async () => (await import('./play')).command },
  tools: { summary: 'list the ten episode tools, or print their JSON Schemas (--json)', load: async () => (await import('./tools')).command },
  check: { summary: 'run the environment conformance check over one task or every task', load: async () => (await import('./check')).command },
  'build-ui': { summary: 'build the Electron main, preload and renderer bundles into out/', load: async () => (await import('./build-ui')).command },
};
