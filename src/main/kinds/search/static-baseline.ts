// The static baselines of E3VS-Bench for any model the runners reach (docs/TASKS.md, "Baselines
// and chance"): blind (the question alone, no image) and start-view (the question with the start
// view), one answer through the `stop` tool and no movement; scored by the exact checker beside
// the set's analytic chance. Inputs: loaded tasks, a client factory (every src/main/eval client
// fits StaticClient). Output: per-task answers and the summary.
// Invariant: the model sees only what its name says: the question and choices, plus the start
// view for start-view; never the answer, the goal or the answerable viewpoints.
import { checkAnswer } from '../../../shared/kinds/search/answers';
import { setChance } from '../../../shared/kinds/search/chance';
import type { SearchTaskSpec } from '../../../shared/kinds/search/kind';
import { renderViewAsync, type AsyncViewRenderer } from '../../../shared/kinds/search/render';
import { searchToolSpecs } from '../../../shared/kinds/search/tools';
import { encodePng } from '../../io/png-encode';
import type { RoomScene } from './scene';

export const STATIC_MODES = ['blind', 'start-view'] as const;
export type StaticMode = (typeof STATIC_MODES)[number];

export interface StaticClient {
  start(system: string, text: string, image: Uint8Array | undefined, tools: { name: string; description: string; parameters: Record<string, unknown> }[]): void;
  next(): Promise<{ calls: { name: string; args: unknown }[]; text: string }>;
}

export const STATIC_SYSTEM = 'You answer a question about a room of a 3D scene. Call the stop tool once with your short answer; you cannot move.';

export function staticPrompt(spec: SearchTaskSpec, mode: StaticMode): string {
  const a = spec.question.answer;
  const choices = a.type === 'choice' ? ` Choices: ${a.choices.join(', ')}.` : '';
  const seeing = mode === 'blind' ? 'You see nothing of the room: answer from the question alone.' : 'The image is the view from where you stand.';
  return `${seeing}\nQuestion: ${spec.question.text}${choices}`;
}

/** The model's answer: the stop call's answer, else its text (trimmed), else null. */
export async function staticAnswer(client: StaticClient, spec: SearchTaskSpec, mode: StaticMode, startView: Uint8Array | undefined): Promise<string | null> {
  const stop = searchToolSpecs().filter((t) => t.name === 'stop').map((t) => {
    const parameters = { ...t.parameters };
    delete parameters.$schema;
    return { ...t, parameters };
  });
  client.start(STATIC_SYSTEM, staticPrompt(spec, mode), mode === 'start-view' ? startView : undefined, stop);
  const turn = await client.next();
  const call = turn.calls.find((c) => c.name === 'stop');
  const given = (call?.args as { answer?: unknown } | undefined)?.answer;
  if (typeof given === 'string' && given.trim()) return given.trim();
  return turn.text.trim() || null;
}

export interface StaticSummary {
  mode: StaticMode;
  episodes: number;
  correct: number;
  chance: number;
}

export async function runStaticBaseline(all: readonly { spec: SearchTaskSpec; scene: RoomScene }[], mode: StaticMode, makeClient: () => StaticClient, opts: { renderer?: AsyncViewRenderer; onProgress?: (line: string) => void; signal?: AbortSignal } = {}): Promise<StaticSummary> {
  let right = 0;
  for (const [i, { spec, scene }] of all.entries()) {
    if (opts.signal?.aborted) throw new Error(`static baseline cancelled after ${i} of ${all.length} tasks`);
    let view: Uint8Array | undefined;
    if (mode === 'start-view') {
      const img = await renderViewAsync(scene.splats, spec.start, opts.renderer);
      view = encodePng({ width: img.width, height: img.height, data: img.rgb });
    }
    const answer = await staticAnswer(makeClient(), spec, mode, view);
    const ok = answer !== null && checkAnswer(spec.question.answer, answer);
    right += ok ? 1 : 0;
    opts.onProgress?.(`${spec.task_id}: ${JSON.stringify(answer)} ${ok ? 'correct' : 'wrong'}`);
  }
  return { mode, episodes: all.length, correct: all.length ? right / all.length : 0, chance: setChance(all.map((a) => a.spec.question)) };
}
