// Each kind tells a model about itself (the kind modules' `agent` texts): the eval runner sends a
// relation episode the relation prompt and the answer tool, never SplatBench's "rebuild ... submit"
// (which relation tasks got before), and each prompt names its own ending call only.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScriptedClient } from '../../../src/main/models/clients/scripted';
import type { ModelClient, ModelTurn, ToolResult, ToolSpec } from '../../../src/main/models/clients/types';
import { EvalConfigSchema } from '../../../src/main/models/config';
import { runEpisode } from '../../../src/main/eval/episode';
import { promptsFor } from '../../../src/main/eval/prompt';
import { parseModelSpec } from '../../../src/main/models/spec';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { loadAnyTask } from '../../../src/main/kinds/registry';
import { RELATION_SYSTEM_PROMPT } from '../../../src/shared/kinds/relation/kind';
import { KIND_MODULES } from '../../../src/shared/kinds/registry';

class Recording implements ModelClient {
  readonly inner = new ScriptedClient('basic');
  system = '';
  tools: string[] = [];
  start(system: string, text: string, image: Uint8Array | undefined, tools: ToolSpec[]): void {
    this.system = system;
    this.tools = tools.map((t) => t.name);
    this.inner.start(system, text, image, tools);
  }
  next(): Promise<ModelTurn> {
    return this.inner.next();
  }
  results(results: ToolResult[]): void {
    this.inner.results(results);
  }
  say(text: string): void {
    this.inner.say(text);
  }
}

describe('the model prompt of each kind', () => {
  it('comes from the kind module and names only its own ending call', () => {
    const ending: Record<string, RegExp> = { splatbench: /\bsubmit\b/, search: /\bstop\b/, relation: /\banswer tool\b/ };
    for (const m of KIND_MODULES) {
      for (const kind of m.kinds) expect(promptsFor(kind)).toBe(m.agent);
      expect(m.agent.system, m.family).toMatch(ending[m.family]);
      for (const [other, re] of Object.entries(ending)) if (other !== m.family) expect(m.agent.system, `${m.family} mentions ${other}`).not.toMatch(re);
    }
  });

  it('sends a relation episode the relation prompt and the answer tool', async () => {
    const tasksDir = join(process.cwd(), 'tasks');
    const task = await loadAnyTask('relation__city__cone-bike__ego', { tasksDir });
    const log = join(mkdtempSync(join(tmpdir(), 'splatlab-relation-eval-')), 'relation__r1.jsonl');
    const client = new Recording();
    const meta = await runEpisode({ jobId: 'j1', task, run: 1, spec: parseModelSpec('scripted:basic'), log }, { grader: undefined as never, config: EvalConfigSchema.parse({}), client: () => client });
    expect(meta.status).toBe('done');
    expect(client.system).toBe(RELATION_SYSTEM_PROMPT);
    expect(client.tools).toEqual(['answer']);
    expect(readTrajectory(log).steps.filter((s) => s.tool === 'answer').length).toBeGreaterThan(0);
  }, 60_000);
});
