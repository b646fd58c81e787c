// Seeded pseudo-random numbers (mulberry32) for reproducible fits, scrambles and tests.
// Input: a 32-bit integer seed. Invariant: the same seed gives the same sequence on every
// platform (only 32-bit integer ops and one division), so seeded runs are reproducible.
import { fnv1a } from './hash';

export class Random {
  private state: number;
  private spare: number | null = null;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [a, b). */
  uniform(a = 0, b = 1): number {
    return a + (b - a) * this.next();
  }

  /** Integer uniform in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Standard normal (Box-Muller; the second value of each pair is kept for the next call). */
  normal(mean = 0, std = 1): number {
    if (this.spare !== null) {
      const z = this.spare;
      this.spare = null;
      return mean + std * z;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return mean + std * r * Math.cos(2 * Math.PI * v);
  }

  /** Fisher-Yates shuffle in place; returns the same array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = items[i];
      items[i] = items[j];
      items[j] = tmp;
    }
    return items;
  }
}

/** A seeded generator: `mulberry32(42).normal()`. */
export function mulberry32(seed: number): Random {
  return new Random(seed);
}

/**
 * A seed derived from a base seed and names (32-bit FNV-1a of `seed/part/part...`), so every random
 * choice of a seeded run (an episode's player, the job order) has its own stream yet all follow
 * from the one `--seed`.
 */
export function deriveSeed(seed: number, ...parts: readonly (string | number)[]): number {
  return fnv1a([seed, ...parts].join('/'));
}
