// Adam (Kingma and Ba 2015) over named groups of float64 parameters, each with its own
// learning rate, updated in place. Inputs: parameter arrays (owned by the caller) and gradients
// of the same lengths. Invariant: deterministic (plain loops in a fixed order), so the same
// gradients always give bit-identical parameters.

export interface AdamOptions {
  beta1?: number; // default 0.9
  beta2?: number; // default 0.999
  eps?: number; // default 1e-15, as 3D Gaussian Splatting uses: gradients here are tiny (per-pixel means)
}

export interface AdamGroup {
  name: string;
  params: Float64Array;
  lr: number;
}

interface GroupState {
  group: AdamGroup;
  m: Float64Array;
  v: Float64Array;
}

export class Adam {
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;
  private readonly groups: GroupState[];
  private t = 0;

  constructor(groups: AdamGroup[], options: AdamOptions = {}) {
    this.beta1 = options.beta1 ?? 0.9;
    this.beta2 = options.beta2 ?? 0.999;
    this.eps = options.eps ?? 1e-15;
    this.groups = groups.map((group) => ({ group, m: new Float64Array(group.params.length), v: new Float64Array(group.params.length) }));
  }

  /** Steps taken so far. */
  get steps(): number {
    return this.t;
  }

  /** Sets a group's learning rate (used for schedules). */
  setLr(name: string, lr: number): void {
    const s = this.groups.find((g) => g.group.name === name);
    if (!s) throw new Error(`Adam: no parameter group '${name}'`);
    s.group.lr = lr;
  }

  /** One update: `grads[name]` holds d loss / d params for every group, same lengths. */
  step(grads: Readonly<Record<string, ArrayLike<number>>>): void {
    this.t += 1;
    const { beta1: b1, beta2: b2, eps } = this;
    const c1 = 1 - Math.pow(b1, this.t);
    const c2 = 1 - Math.pow(b2, this.t);
    for (const { group, m, v } of this.groups) {
      const g = grads[group.name];
      if (!g || g.length !== group.params.length) {
        throw new Error(`Adam: gradient for '${group.name}' has ${g ? g.length : 'no'} values, expected ${group.params.length}`);
      }
      const p = group.params;
      const lr = group.lr;
      for (let i = 0; i < p.length; i++) {
        const gi = g[i];
        m[i] = b1 * m[i] + (1 - b1) * gi;
        v[i] = b2 * v[i] + (1 - b2) * gi * gi;
        p[i] -= (lr * (m[i] / c1)) / (Math.sqrt(v[i] / c2) + eps);
      }
    }
  }
}
