// The live search episode (docs/DESIGN.md sections 9 and 13): the pure SearchRules plus the
// observation (a 512x512 render at 90 degrees HFOV of the current viewpoint, the question and the
// footer), the hidden part of each record (distance to the nearest answerable viewpoint and the
// answerable flag) and the trajectory log in the common format.
// Inputs: a loaded SearchTask, KindEnvOptions. Outputs: ToolOut per call, the log, the final grade.
// Invariant: the answer, the goal and the answerable viewpoints leave only through the log's
// hidden fields and finalGrade(); a resumed log is replayed through fresh rules by the one replay
// (src/shared/kinds/replay.ts, strict) and refused when a logged text differs from the replay.
import { copyFile } from 'node:fs/promises';
import type { ToolCall } from '../../../shared/env/step';
import { searchRules, type SearchTaskSpec } from '../../../shared/kinds/search/kind';
import { hiddenAt as hiddenOfPose, searchOutcome as outcomeOf, type SearchOutcome } from '../../../shared/kinds/search/outcome';
import type { Pose } from '../../../shared/kinds/search/pose';
import { renderViewAsync, type AsyncViewRenderer } from '../../../shared/kinds/search/render';
import type { SearchRules } from '../../../shared/kinds/search/rules';
import { replaySteps } from '../../../shared/kinds/replay';
import { replayedSummary, type ToolOut } from '../../env/tool-out';
import { readTrajectory, TrajectoryWriter, type StepRecord } from '../../env/trajectory';
import { localPng } from '../../workers/png';
import { CallsOnlyEnv } from '../calls-only-env';
import type { KindEnvOptions, KindGrade, KindTask } from '../kind';
import type { CapName } from '../../../shared/env/caps';
import { endingOf } from '../../../shared/env/step-info';
import type { RoomScene } from './scene';

export interface SearchTask extends KindTask {
  readonly spec: SearchTaskSpec;
  readonly scene: RoomScene;
}

export interface SearchEnvOptions extends KindEnvOptions {
  /**
   * The render path; default the lab's viewRenderer, else renderView's own (the tile rasterizer on
   * the calling thread, the same image as the lab's CPU path). Tests pass cheap fakes here.
   */
  renderer?: AsyncViewRenderer;
}

export function hiddenAt(task: SearchTask, pose: Pose): { distance: number; answerable: boolean } {
  return hiddenOfPose(task.spec, task.scene.visibility, pose);
}

export function searchOutcome(task: SearchTask, rules: SearchRules): SearchOutcome {
  return outcomeOf(task.spec, task.scene.visibility, rules);
}

export class SearchEnv extends CallsOnlyEnv<SearchRules> {
  private constructor(readonly task: SearchTask, rules: SearchRules, private readonly options: SearchEnvOptions) {
    super(rules, task.spec.max_steps, options);
  }

  static async reset(task: SearchTask, options: SearchEnvOptions): Promise<{ env: SearchEnv; obs: ToolOut }> {
    const env = new SearchEnv(task, searchRules(task.spec, task.scene.collider), options);
    if (options.resumeFrom) {
      const source = typeof options.resumeFrom === 'string' ? { path: options.resumeFrom } : options.resumeFrom;
      const log = source.trajectory ?? readTrajectory(source.path);
      for (const { record, result } of replaySteps(env.rules, log.steps, { strict: true, source: source.path })) env.resumedCall(replayedSummary(record, result.info));
      const logPath = options.log ?? source.path;
      if (logPath !== source.path) await copyFile(source.path, logPath);
      env.writer = await TrajectoryWriter.resumeAsync(logPath, log.validBytes, options.logFile);
      if (env.rules.done && !log.end) await env.finish();
      if (env.rules.done) env.final = env.grade();
      return { env, obs: { text: `Resumed after ${env.rules.stepCount} steps.\n${env.rules.firstObservation().split('\n')[0]}`, image: await env.render(), done: env.rules.done, info: env.currentInfo() } };
    }
    const t0 = Date.now();
    const started = new Date(t0);
    const text = env.rules.firstObservation();
    const image = await env.render();
    const record: StepRecord = { step: 0, tool: 'reset', args: {}, text, t: new Date(t0).toISOString(), ms: Date.now() - t0, search: env.hidden(false) };
    if (options.log) env.writer = await TrajectoryWriter.start(options.log, env.searchHeader(started), record, options.logFile);
    return { env, obs: { text, image, done: false, info: env.currentInfo() } };
  }

  /**
   * The log's header with only the search kind's own option: whether an unreadable action became
   * move_forward (E3VS's rule, the spec's default_forward). Other kinds' aids never apply here.
   */
  private searchHeader(started: Date) {
    const h = this.header(this.task.spec.task_id, 'search', started);
    return { ...h, protocol_options: { default_forward: this.task.spec.default_forward } };
  }

  kindState(): unknown {
    return this.rules.publicState();
  }
  /** The pure rules' view of the episode (tests, the CLI baselines). */
  pose(): Pose {
    return this.rules.currentPose();
  }

  protected freshRules(): SearchRules {
    return searchRules(this.task.spec, this.task.scene.collider);
  }

  protected async stepNow(call: ToolCall, requestId: string | undefined): Promise<ToolOut> {
    const t0 = Date.now();
    const collisionsBefore = this.rules.collisions();
    const result = this.rules.step(call);
    const text = `${result.body}\n${result.footer}`;
    if (!result.charged) return { text, done: true, info: result.info };
    const image = await this.render();
    const args = call?.args === undefined ? {} : JSON.parse(JSON.stringify(call.args)) as unknown;
    const record: StepRecord = {
      step: result.info.step ?? this.rules.stepCount, tool: result.tool, args, text, t: new Date(t0).toISOString(), ms: Date.now() - t0, ok: result.ok,
      search: this.hidden(this.rules.collisions() > collisionsBefore), ...(requestId === undefined ? {} : { request_id: requestId }),
    };
    if (result.done) record.done = true;
    await this.writer?.append(record);
    // Written: charged from here on (a failure before this point rolls the call back).
    this.written(call);
    // The log ends with its whole last step (done) when the end record cannot be written now; a resume writes it.
    if (result.done) await this.finish().catch(() => undefined);
    return { text, image, done: result.done, info: result.info };
  }

  private hidden(collided: boolean) {
    const pose = this.rules.currentPose();
    return { ...hiddenAt(this.task, pose), pose, collided };
  }

  private async render(): Promise<Uint8Array> {
    const out = await renderViewAsync(this.task.scene.splats, this.rules.currentPose(), this.options.renderer ?? this.options.viewRenderer);
    // Encoded where the lab says (its worker pool: issue 38 item 1), else on this thread.
    return (this.options.encodePng ?? localPng)({ width: out.width, height: out.height, data: out.rgb });
  }

  private grade(): KindGrade {
    const o = searchOutcome(this.task, this.rules);
    return { score: o.score, reward: o.reward, trainingReward: o.training_reward };
  }

  /** The end record, written and flushed off the event loop (after the records before it). */
  protected async finish(extra?: { cap: CapName }): Promise<void> {
    this.final = this.grade();
    const ending = endingOf(this.rules.endReason);
    await this.writer?.append({ type: 'end', ...searchOutcome(this.task, this.rules), ...(ending ? { ending } : {}), ...extra, t: new Date().toISOString() });
  }

}
