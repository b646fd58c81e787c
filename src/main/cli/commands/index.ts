// Every `splatlab` subcommand with its one-line summary, in the order `--help` lists them.
// Commands load lazily so `--help` and light commands never pay for Dawn or the rasterizer.
import type { CommandEntry } from '../command';
import { kindCommands } from '../kind-commands';

export type { CommandEntry };

export const COMMANDS: Record<string, CommandEntry> = {
  start: { summary: 'open the lab (Electron window, or the browser UI when no window can open)', load: async () => (await import('./start')).command },
  serve: { summary: 'serve the lab UI on a loopback URL (browser mode)', load: async () => (await import('./serve')).command },
  doctor: { summary: 'report Node, the GPU path, Electron, data folders and tasks found', load: async () => (await import('./doctor')).command },
  render: { summary: 'render a scene file from a camera to PNG (GPU or CPU reference)', load: async () => (await import('./render')).command },
  bench: { summary: 'benchmarks of docs/PERFORMANCE.md (raster vs the dense peer, formats vs splat-transform) with machine and load (--json)', load: async () => (await import('./bench')).command },
  metrics: { summary: 'PSNR, SSIM, LPIPS and silhouette IoU of two PNG images', load: async () => (await import('./metrics')).command },
  play: { summary: 'play an episode from a JSONL file of {tool, args} calls, logging the trajectory', load: async () => (await import('./play')).command },
  tasks: { summary: 'list every task with kind, family, budgets, split, source and content hash (--json)', load: async () => (await import('./tasks')).command },
  tools: { summary: 'list the ten episode tools, or print their JSON Schemas (--json)', load: async () => (await import('./tools')).command },
  grade: { summary: 'grade any scene on a task\'s held-out views: per-view metrics and SplatScore', load: async () => (await import('./grade')).command, withoutKinds: true },
  replay: { summary: 'print a trajectory with the hidden score after each call', load: async () => (await import('./replay')).command },
  repair: { summary: 'show a damaged trajectory log (a repeated or missing step) and keep the part that replays', load: async () => (await import('./repair')).command },
  author: { summary: 'build procedural tasks: photos, fit, scramble, anchors (author build OBJECT|--all)', load: async () => (await import('./author')).command },
  fit: { summary: "fit the gradient-descent reference of a task's object (fit.json + fit_loss.png)", load: async () => (await import('./fit')).command },
  scramble: { summary: 'redraw the reassembly scramble of a task (k-means parts, random moves and turns)', load: async () => (await import('./scramble')).command },
  import: { summary: 'import a NeRF-Synthetic capture as tasks, or a 3DGS .ply as a scene file', load: async () => (await import('./import')).command },
  export: { summary: 'export a fit, a scene or a trajectory step as a 3DGS .ply', load: async () => (await import('./export')).command },
  lpips: { summary: 'download and convert the LPIPS (AlexNet v0.1) weights: lpips fetch DIR', load: async () => (await import('./lpips')).command },
  check: { summary: 'run the environment conformance check over one task or every task', load: async () => (await import('./check')).command },
  docs: { summary: 'regenerate docs/TOOLS.md and docs/API.md from the schemas (--check: report stale)', load: async () => (await import('./docs')).command },
  mcp: { summary: 'MCP server: one session = one episode (stdio, or Streamable HTTP with --http)', load: async () => (await import('./mcp')).command },
  eval: { summary: 'run models on tasks (OpenAI-compatible, Anthropic, scripted): resumable, embedded or BullMQ queue', load: async () => (await import('./eval')).command },
  report: { summary: 'analyses of humans and models side by side: charts (SVG) and tables (CSV)', load: async () => (await import('./report')).command },
  paper: { summary: "a study's paper tables (every seed table: people beside each model) as CSV, Markdown and LaTeX, figures as SVG and PNG", load: async () => (await import('./paper')).command },
  rl: { summary: 'HTTP JSON protocol for RL trainers: reset, step, reward (benchmark and training reward)', load: async () => (await import('./rl')).command },
  study: { summary: 'a study on several lab stations: study plan|stations|join|archive|merge', load: async () => (await import('./study')).command },
  'build-ui': { summary: 'build the Electron main, preload and renderer bundles into out/', load: async () => (await import('./build-ui')).command },
};

/** The lab's commands, then each kind's own (src/main/cli/kind-commands.ts, SPLATLAB_KINDS' included once loaded). */
export function commands(): Record<string, CommandEntry> {
  const kinds = kindCommands();
  const clash = Object.keys(kinds).find((name) => Object.prototype.hasOwnProperty.call(COMMANDS, name));
  if (clash) throw new Error(`a kind's command '${clash}' has the name of a lab command`);
  return { ...COMMANDS, ...kinds };
}
