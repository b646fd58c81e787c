// The pure episode: budgets, validation order and the end of the episode in one place, with no
// rendering (Gymnasium spirit). Main wraps it, fulfils the image requests and grades.
// Inputs: a task's public config and start scene; one {tool, args} call per step.
// Outputs: SplatStepResult (body text, footer, optional image request, done). Invariants: every
// accepted call costs exactly one call (and a render tool with valid arguments one render);
// a rejected call never changes the scene; calls after the end cost nothing and change nothing;
// the episode ends on submit or when the last call has been spent.
import { budgetFooter, withFooter, type SplatBudgetState } from './format';
import { formatIssues } from '../../env/issues';
import { addGaussians, deleteGaussians, editGaussians, transformGroup, type EditOutcome } from './ops-edit';
import { describeGroups, describeView, listGaussians, resolveGroups, resolveViews } from './ops-inspect';
import type { StepResult, ToolCall } from '../../env/step';
import type { ViewInfo } from '../../env/views';
import type { TaskKind } from '../../task/schema';
import { cloneRecord, type GaussianRecord } from '../../scene/records';
import { decodeArgs, EPISODE_OVER, errorText, NAMELESS_TOOL, namelessRefusal, toolNameOf } from '../../env/outcome';
import { endingOf, outcomeOf, type EndReason, type OutcomeCode, type StepInfo } from '../../env/step-info';
import { isToolName, TOOL_NAMES, TOOL_SCHEMAS, type ToolArgs, type ToolName } from './tools';

const VERB: Partial<Record<ToolName, string>> = {
  add_gaussians: 'added',
  edit_gaussians: 'edited',
  delete_gaussians: 'deleted',
  transform_group: 'transformed',
  view_references: 'shown',
  render_views: 'rendered',
  render_angle: 'rendered',
};

const AUTO_SUBMIT = 'That was the last call: the scene was submitted automatically.';

/** SplatBench's public config of a task (its budgets and reference views), from which its Episode is built. */
export interface EpisodeConfig {
  kind: TaskKind;
  maxGaussians: number;
  maxToolCalls: number;
  maxRenders: number;
  referenceViews: readonly ViewInfo[];
}

/** What main must draw for an image tool (indices refer to config.referenceViews). */
export type ImageRequest =
  | { kind: 'references'; views: number[] }
  | { kind: 'views'; views: number[]; groups?: string[] }
  | { kind: 'angle'; azimuth: number; elevation: number; groups?: string[] };

/** SplatBench's step result: every kind's, and the image its image tools ask main to draw. */
export interface SplatStepResult extends StepResult {
  image?: ImageRequest;
}

type Handled = { ok: true; text: string; records?: GaussianRecord[]; nextId?: number; image?: ImageRequest; submit?: boolean } | { ok: false; error: string; code?: OutcomeCode };

export class Episode {
  private scene: GaussianRecord[];
  private idCounter: number;
  private callsUsed = 0;
  private rendersUsed = 0;
  private ended: EndReason | null = null;

  constructor(readonly config: EpisodeConfig, init: readonly GaussianRecord[] | null = null) {
    this.scene = (init ?? []).map(cloneRecord).sort((a, b) => a.id - b.id);
    this.idCounter = this.scene.length ? this.scene[this.scene.length - 1].id + 1 : 0;
  }

  get done(): boolean {
    return this.ended !== null;
  }

  get endReason(): EndReason | null {
    return this.ended;
  }

  get nextId(): number {
    return this.idCounter;
  }

  get usage(): { calls: number; renders: number } {
    return { calls: this.callsUsed, renders: this.rendersUsed };
  }

  records(): readonly GaussianRecord[] {
    return this.scene;
  }

  budgets(): SplatBudgetState {
    return {
      gaussians: this.scene.length,
      maxGaussians: this.config.maxGaussians,
      callsLeft: this.config.maxToolCalls - this.callsUsed,
      rendersLeft: this.config.maxRenders - this.rendersUsed,
    };
  }

  footer(): string {
    return budgetFooter(this.budgets());
  }

  /** The first observation text (shown with the reference sheet), footer included. */
  firstObservation(): string {
    const c = this.config;
    const views = `Reference views: ${c.referenceViews.map(describeView).join(', ')}. The image shows all reference views.`;
    const budget = `Budget: at most ${c.maxGaussians} Gaussians, ${c.maxToolCalls} tool call${c.maxToolCalls === 1 ? '' : 's'}, ${c.maxRenders} render${c.maxRenders === 1 ? '' : 's'}.`;
    return withFooter(`${views} ${budget} ${startText(c, this.scene)}`, this.budgets());
  }

  step(call: ToolCall): SplatStepResult {
    const tool = toolNameOf(call) ?? NAMELESS_TOOL;
    if (this.ended) {
      const info = this.info(tool, { ok: false, charged: false, changed: false, ids: [], code: 'episode_over' });
      return { tool, charged: false, ok: false, changed: false, done: true, endReason: this.ended, body: EPISODE_OVER, footer: this.footer(), info };
    }
    this.callsUsed += 1;
    const handled = this.handle(call);
    let changed = false;
    const idsBefore = this.idCounter;
    if (handled.ok && handled.records) {
      this.scene = handled.records;
      this.idCounter = handled.nextId ?? this.idCounter;
      changed = true;
    }
    const ids = Array.from({ length: this.idCounter - idsBefore }, (_, i) => idsBefore + i);
    if (handled.ok && (handled.image?.kind === 'views' || handled.image?.kind === 'angle')) this.rendersUsed += 1;
    let body = handled.ok ? handled.text : handled.error;
    if (handled.ok && handled.submit) this.ended = 'submit';
    else if (this.callsUsed >= this.config.maxToolCalls) {
      this.ended = 'auto';
      body = body ? `${body}\n${AUTO_SUBMIT}` : AUTO_SUBMIT;
    }
    return {
      tool,
      charged: true,
      ok: handled.ok,
      changed,
      done: this.ended !== null,
      ...(this.ended ? { endReason: this.ended } : {}),
      body,
      footer: this.footer(),
      ...(handled.ok && handled.image ? { image: handled.image } : {}),
      info: this.info(tool, { ok: handled.ok, charged: true, changed, ids, code: handled.ok ? 'ok' : (handled.code ?? 'rejected') }),
    };
  }

  /** Calls charged so far: the number of the last charged call (0 before the first). */
  get stepCount(): number {
    return this.callsUsed;
  }

  /** Where the episode stands, as the StepInfo of no call (step: the calls charged so far). */
  standing(): StepInfo {
    return { ...this.info('', { ok: true, charged: false, changed: false, ids: [], code: 'ok' }), step: this.callsUsed > 0 ? this.callsUsed : null };
  }

  /**
   * Ends the episode because a per-episode cap (cost, tokens, messages, wall time) was reached:
   * the scene stays as it is and is graded like a submission, but the end is a truncation.
   */
  truncate(): void {
    this.ended ??= 'cap';
  }

  private info(tool: string, o: { ok: boolean; charged: boolean; changed: boolean; ids: number[]; code: OutcomeCode }): StepInfo {
    const b = this.budgets();
    return {
      tool,
      ok: o.ok,
      charged: o.charged,
      step: o.charged ? this.callsUsed : null,
      changed: o.changed,
      ids: o.ids,
      done: this.ended !== null,
      endReason: this.ended,
      ending: endingOf(this.ended),
      outcome: outcomeOf(o.code),
      nextId: this.idCounter,
      budgets: { gaussians: b.gaussians, maxGaussians: b.maxGaussians, callsLeft: b.callsLeft, rendersLeft: b.rendersLeft },
    };
  }

  private handle(call: ToolCall): Handled {
    const name = toolNameOf(call);
    if (name === null) {
      const r = namelessRefusal(TOOL_NAMES);
      return { ok: false, code: r.code, error: errorText(r.detail) };
    }
    if (!isToolName(name)) {
      return { ok: false, code: 'unknown_tool', error: errorText(`unknown tool '${name.slice(0, 40)}' (tools: ${TOOL_NAMES.join(', ')})`) };
    }
    const tool = name;
    const verb = VERB[tool];
    const lead = errorText(verb ? `nothing was ${verb}.` : 'invalid arguments.');
    const decoded = decodeArgs(call.args);
    if (!decoded.ok) return { ok: false, code: decoded.code, error: `${lead} ${decoded.detail}` };
    const raw = decoded.value;
    const parsed = TOOL_SCHEMAS[tool].safeParse(raw);
    if (!parsed.success) return { ok: false, code: 'invalid_args', error: `${lead} ${formatIssues(parsed.error.issues, raw)}` };
    if ((tool === 'render_views' || tool === 'render_angle') && this.rendersUsed >= this.config.maxRenders) {
      return { ok: false, code: 'no_renders', error: errorText(`nothing was rendered. No renders left (all ${this.config.maxRenders} used).`) };
    }
    const edit = (o: EditOutcome): Handled => (o.ok ? { ok: true, text: o.text, records: o.records, nextId: o.nextId } : { ok: false, error: o.error });
    const a = parsed.data as Record<string, unknown>;
    const views = this.config.referenceViews;
    switch (tool) {
      case 'add_gaussians':
        return edit(addGaussians(this.scene, this.idCounter, this.config.maxGaussians, parsed.data as ToolArgs<'add_gaussians'>));
      case 'edit_gaussians':
        return edit(editGaussians(this.scene, this.idCounter, parsed.data as ToolArgs<'edit_gaussians'>));
      case 'delete_gaussians':
        return edit(deleteGaussians(this.scene, this.idCounter, parsed.data as ToolArgs<'delete_gaussians'>));
      case 'transform_group':
        return edit(transformGroup(this.scene, this.idCounter, parsed.data as ToolArgs<'transform_group'>));
      case 'list_gaussians': {
        const r = listGaussians(this.scene, a.group as string | undefined);
        return r.ok ? { ok: true, text: r.text } : { ok: false, error: r.error };
      }
      case 'describe_groups':
        return { ok: true, text: describeGroups(this.scene) };
      case 'view_references': {
        const v = resolveViews(a.views as (number | string)[] | undefined, views);
        if (!v.ok) return { ok: false, error: `${lead} ${v.error}` };
        return { ok: true, text: `Reference views: ${v.indices.map((i) => describeView(views[i])).join(', ')}.`, image: { kind: 'references', views: v.indices } };
      }
      case 'render_views': {
        const v = resolveViews(a.views as (number | string)[] | undefined, views);
        if (!v.ok) return { ok: false, error: `${lead} ${v.error}` };
        const g = resolveGroups(a.groups as string[] | undefined, this.scene);
        if (!g.ok) return { ok: false, error: `${lead} ${g.error}` };
        return { ok: true, text: '', image: { kind: 'views', views: v.indices, ...(g.groups ? { groups: g.groups } : {}) } };
      }
      case 'render_angle': {
        const g = resolveGroups(a.groups as string[] | undefined, this.scene);
        if (!g.ok) return { ok: false, error: `${lead} ${g.error}` };
        if (!Number.isFinite(a.azimuth)) return { ok: false, error: `${lead} azimuth must be finite` };
        return { ok: true, text: '', image: { kind: 'angle', azimuth: a.azimuth as number, elevation: a.elevation as number, ...(g.groups ? { groups: g.groups } : {}) } };
      }
      case 'submit':
        return { ok: true, text: 'Submitted. The episode is over.', submit: true };
    }
  }
}

function startText(c: EpisodeConfig, scene: readonly GaussianRecord[]): string {
  if (c.kind === 'reassembly' || scene.length > 0) {
    const groups = [...new Set(scene.map((r) => r.group).filter((g): g is string => g !== undefined))];
    const labelled = groups.length ? ` in ${groups.length} labelled group${groups.length === 1 ? '' : 's'} (${groups.join(', ')})` : '';
    const task = c.kind === 'reassembly'
      ? ' Each group is a part of the object that was moved to a random place and turned about the vertical axis; the labels say nothing about where a part belongs. Move and turn each part back into place with transform_group.'
      : '';
    return `The scene starts with ${scene.length} Gaussians${labelled}.${task}`;
  }
  if (c.kind === 'oneshot' || c.maxToolCalls === 1) {
    return 'The scene starts empty. Build the object from Gaussians in a single call: you have one tool call and no renders, and the scene is submitted after it. Any call ends the episode, even one that is refused (an invalid call, a list or describe call), so make it add_gaussians with the whole object.';
  }
  return 'The scene starts empty. Build the object from Gaussians.';
}
