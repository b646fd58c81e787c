// The task-kind interface, shared half (docs/DESIGN.md section 9 and "Task kinds as modules"): what
// every kind declares so that transports, studies, the trajectory writer, replay, results and
// the agent harness are written once. A kind is one module per layer: this pure half (spec
// schema, tools, episode rules, trajectory fields), a main half (hidden grader, observations:
// src/main/kinds/kind.ts) and a play view (src/renderer/kinds/registry.ts).
// Invariant: the tools' zod schemas are the single source of their JSON Schema, their validation
// and their docs; rules() is pure and deterministic, so one replay rebuilds any episode exactly.
import { toJSONSchema, type z } from 'zod';
import type { StepResult, ToolCall } from '../env/step';
import type { BudgetState } from '../env/format';
import type { GaussianRecord } from '../scene/gaussian';
import type { TaskKind, TaskSpecHead } from '../task/schema';

/** The pure episode of a kind: budgets, validation order and the end, no rendering. */
export interface KindRules {
  readonly done: boolean;
  /** Calls charged so far. */
  readonly stepCount: number;
  firstObservation(): string;
  step(call: ToolCall): StepResult;
  budgets(): BudgetState;
  /** The scene as Gaussians (SplatBench); absent for a kind without a Gaussian scene. */
  records?(): readonly GaussianRecord[];
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12) of the arguments, made from the zod schema. */
  parameters: Record<string, unknown>;
}

export interface TaskKindModule {
  /** The family of kinds this module serves (SplatBench serves sculpt, reassembly and one-shot). */
  readonly family: string;
  /** How the lab names the family to experimenters (the task list's sections, Results). */
  readonly title: string;
  /** One sentence on what a player does in these tasks (the task list's section header). */
  readonly summary: string;
  readonly kinds: readonly TaskKind[];
  /** `tasks/<task_id>.json` of these kinds (the whole file; it extends TaskSpecHead). */
  readonly specSchema: z.ZodType<TaskSpecHead>;
  /** Each tool's argument schema: validation in the rules, JSON Schema for agents, docs. */
  readonly tools: Readonly<Record<string, z.ZodType>>;
  /** The tools' specs for agents; the registry's default derives them from `tools` (toolSpecsOf). */
  toolSpecs(): ToolSpec[];
  /** The call that ends an episode for a player who stopped playing (a model idle too long). */
  readonly giveUp: { tool: string; args: Record<string, unknown> };
  /**
   * What a participant is told about this kind's tasks (src/shared/study/config.ts defaultTexts):
   * one consent sentence saying what they will do, and the instruction paragraphs.
   */
  readonly participant: { about: string; instructions: readonly string[] };
  /**
   * What a model is told (the eval runners' system prompt) and the reminder an idle model gets;
   * the first observation stays the environment's own and is never rewritten.
   */
  readonly agent: { system: string; reminder: string };
  /**
   * What the `score` of an episode's end record measures for this family, named on every results
   * row (docs/STUDIES.md, "Per-kind summaries"): scores of different families are never pooled.
   */
  readonly score: { readonly unit: string; readonly what: string };
  /** What a trajectory of this kind adds to the common records (docs/API.md). */
  readonly trajectory: { readonly header: z.ZodType; readonly step: z.ZodType; readonly end: z.ZodType };
}

/** A kind module as a kind writes it: `toolSpecs` may be left to the registry's default. */
export type KindModuleInput = Omit<TaskKindModule, 'toolSpecs'> & { toolSpecs?(): ToolSpec[] };

/** Each tool's spec from its zod schema: the schema's description, its input JSON Schema without it. */
export function toolSpecsOf(tools: Readonly<Record<string, z.ZodType>>): ToolSpec[] {
  return Object.entries(tools).map(([name, schema]) => {
    const parameters = toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
    delete parameters.description;
    return { name, description: schema.description ?? '', parameters };
  });
}
