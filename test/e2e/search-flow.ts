// Shared steps of the search e2e files: type the answer, stop with Enter, wait for the end, and
// read the episode's log from the lab home's trajectories. Input: the page, the lab home, the
// task id, the answer. Output: the trajectory (the caller checks its end record).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { readTrajectory, type Trajectory } from '../../src/main/env/trajectory';

export async function answerAndReadLog(page: Page, home: string, task: string, answer: string): Promise<Trajectory> {
  await page.getByTestId('search-answer').fill(answer);
  await page.getByTestId('search-answer').press('Enter');
  await page.getByTestId('search-done').waitFor({ timeout: 60_000 });
  const dir = join(home, 'trajectories');
  const file = readdirSync(dir).find((f) => f.startsWith(`${task}-`) && f.endsWith('.jsonl'));
  expect(file).toBeDefined();
  return readTrajectory(join(dir, file!));
}
