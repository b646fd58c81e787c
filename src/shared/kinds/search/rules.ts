// The pure search episode (docs/DESIGN.md sections 9 and 11): the viewpoint, the step budget,
// collisions, the answer and the end, with no rendering. Main renders each observation and
// writes the log; replay runs logged calls through a fresh SearchRules.
// Inputs: a SearchConfig, a Collider; one {tool, args} call per step. Outputs: StepResult
// (body text, footer with the steps left, done) and the episode's public state.
// Invariants: every call before the end costs exactly one step, valid or not (an option turns an
// unparseable call into move_forward, as E3VS does); a collision leaves the pose unchanged and is
// counted; the episode ends on stop or when the last step is spent; calls after the end cost nothing.
import type { StepResult, ToolCall } from '../../env/step';
import type { BudgetState } from '../../env/format';
import { decodeArgs, EPISODE_OVER, errorText, NAMELESS_TOOL, namelessRefusal, toolNameOf } from '../../env/outcome';
import { endingOf, outcomeOf, type EndReason, type OutcomeCode, type StepInfo } from '../../env/step-info';
import type { KindRules } from '../kind';
import type { Collider } from './collide';
import { MOTION_ACTIONS, type MotionAction, type MotionConfig, type Pose } from './pose';
import { SEARCH_TOOL_SCHEMAS } from './tools';
import { motionWorld, stepPose, type MotionWorld } from './world';

export interface SearchConfig {
  question: string;
  /** The choices of a multiple-choice question (shown to every player), else empty. */
  choices: readonly string[];
  start: Pose;
  maxSteps: number;
  motion: MotionConfig;
  radius: number;
  /** E3VS's rule: an unparseable action is taken as move_forward (still one step). */
  defaultForward: boolean;
}

/** What the play view may show: the question, the steps, the last outcome; never the pose's answerability. */
export interface SearchPublicState {
  question: string;
  choices: string[];
  step: number;
  maxSteps: number;
  stepsLeft: number;
  done: boolean;
  answer: string | null;
  lastCollision: boolean;
}

const MOVE_WORDS: Record<MotionAction, string> = {
  move_forward: 'Moved forward 0.25 m.', move_back: 'Moved back 0.25 m.', move_left: 'Stepped left 0.25 m.', move_right: 'Stepped right 0.25 m.',
  move_up: 'Moved up 0.25 m.', move_down: 'Moved down 0.25 m.', turn_left: 'Turned left 30 degrees.', turn_right: 'Turned right 30 degrees.',
  look_up: 'Looked up 30 degrees.', look_down: 'Looked down 30 degrees.',
};

export function searchFooter(stepsUsed: number, maxSteps: number): string {
  return `[step ${stepsUsed}/${maxSteps} | steps left ${maxSteps - stepsUsed}]`;
}

export class SearchRules implements KindRules {
  private pose: Pose;
  private used = 0;
  private ended: EndReason | null = null;
  private given: string | null = null;
  private collisionCount = 0;
  private travelled = 0;
  private lastHit = false;
  private readonly world: MotionWorld;

  constructor(readonly config: SearchConfig, collider: Collider) {
    this.pose = { ...config.start };
    this.world = motionWorld(collider, config.radius, config.motion);
  }

  get done(): boolean {
    return this.ended !== null;
  }
  get stepCount(): number {
    return this.used;
  }
  get endReason(): EndReason | null {
    return this.ended;
  }
  currentPose(): Pose {
    return { ...this.pose };
  }
  answer(): string | null {
    return this.given;
  }
  collisions(): number {
    return this.collisionCount;
  }
  /** Metres actually moved (collisions move nothing). */
  pathLength(): number {
    return this.travelled;
  }

  budgets(): BudgetState {
    return { callsLeft: this.config.maxSteps - this.used };
  }

  footer(): string {
    return searchFooter(this.used, this.config.maxSteps);
  }

  firstObservation(): string {
    return `${this.questionLine()}\n${searchFooter(0, this.config.maxSteps)}`;
  }

  publicState(): SearchPublicState {
    return {
      question: this.config.question, choices: [...this.config.choices], step: this.used, maxSteps: this.config.maxSteps, stepsLeft: this.config.maxSteps - this.used,
      done: this.done, answer: this.given, lastCollision: this.lastHit,
    };
  }

  standing(): StepInfo {
    // Not a call: ok and uncharged, so a first observation is never reported as an error (MCP isError).
    return { ...this.info('', true, false, 'ok'), step: this.used > 0 ? this.used : null };
  }

  /** Ends the episode at a per-episode cap (cost, tokens, messages, wall time): no answer, truncated. */
  truncate(): void {
    this.ended ??= 'cap';
  }

  step(call: ToolCall): StepResult {
    const tool = toolNameOf(call) ?? NAMELESS_TOOL;
    if (this.ended) {
      return this.result(tool, false, false, EPISODE_OVER, false, 'episode_over');
    }
    this.used++;
    this.lastHit = false;
    const before = this.pose;
    const parsed = this.parse(call);
    let ok = true;
    let code: OutcomeCode = 'ok';
    let body: string;
    if (parsed.kind === 'error') {
      // The call as written is refused either way (ok false); E3VS's rule then moves forward.
      ok = false;
      code = parsed.code;
      if (this.config.defaultForward) body = `${errorText(parsed.error)}; taken as move_forward. ${this.motion('move_forward')}`;
      else body = errorText(`${parsed.error} (the step is spent; the viewpoint is unchanged).`);
    } else if (parsed.kind === 'stop') {
      this.given = parsed.answer;
      this.ended = 'submit';
      body = `Stopped with the answer "${parsed.answer}".`;
    } else body = this.motion(parsed.action);
    if (!this.ended && this.used >= this.config.maxSteps) {
      this.ended = 'auto';
      body += ' That was the last step: the episode ended without an answer.';
    }
    const text = this.ended ? body : `${body}\n${this.questionLine()}`;
    return this.result(tool, ok, true, text, this.pose !== before, code);
  }

  private questionLine(): string {
    const c = this.config.choices;
    return `Question: ${this.config.question}${c.length ? ` Choices: ${c.join(', ')}.` : ''}`;
  }

  private motion(action: MotionAction): string {
    const before = this.pose;
    const s = stepPose(this.world, before, action);
    if (s.collided) {
      this.collisionCount++;
      this.lastHit = true;
      return `Blocked: ${action} would collide; the viewpoint is unchanged.`;
    }
    this.travelled += Math.hypot(s.pose.x - before.x, s.pose.y - before.y, s.pose.z - before.z);
    const clamped = (action === 'look_up' || action === 'look_down') && s.pose.pitch === before.pitch;
    if (!clamped) this.pose = s.pose;
    return clamped ? `The view is tilted as far as it goes (${before.pitch} degrees); nothing changed.` : MOVE_WORDS[action];
  }

  private parse(call: ToolCall): { kind: 'motion'; action: MotionAction } | { kind: 'stop'; answer: string } | { kind: 'error'; code: OutcomeCode; error: string } {
    const tool = toolNameOf(call);
    const actions = [...MOTION_ACTIONS, 'stop'];
    if (tool === null) return { kind: 'error', ...refusal(namelessRefusal(actions)) };
    if (!(tool in SEARCH_TOOL_SCHEMAS)) {
      return { kind: 'error', code: 'unknown_tool', error: `unknown action ${JSON.stringify(tool)} (use ${actions.join(', ')})` };
    }
    const decoded = decodeArgs(call.args);
    if (!decoded.ok) return { kind: 'error', ...refusal(decoded) };
    const res = SEARCH_TOOL_SCHEMAS[tool as keyof typeof SEARCH_TOOL_SCHEMAS].safeParse(decoded.value);
    if (!res.success) return { kind: 'error', code: 'invalid_args', error: `${tool}: ${res.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`).join('; ')}` };
    if (tool === 'stop') return { kind: 'stop', answer: (res.data as { answer: string }).answer };
    return { kind: 'motion', action: tool as MotionAction };
  }

  private info(tool: string, ok: boolean, charged: boolean, code: OutcomeCode): StepInfo {
    const b = this.budgets();
    return {
      tool, ok, charged, step: charged ? this.used : null, done: this.done, endReason: this.ended,
      ending: endingOf(this.ended), outcome: outcomeOf(code),
      budgets: { callsLeft: b.callsLeft },
    };
  }

  private result(tool: string, ok: boolean, charged: boolean, body: string, changed: boolean, code: OutcomeCode): StepResult {
    const info = { ...this.info(tool, ok, charged, code), changed };
    return { tool, charged, ok, changed, done: this.done, ...(this.ended ? { endReason: this.ended } : {}), info, body, footer: searchFooter(this.used, this.config.maxSteps) };
  }
}

function refusal(r: { code: OutcomeCode; detail: string }): { code: OutcomeCode; error: string } {
  return { code: r.code, error: r.detail };
}
