// Typed values against what gets staged (issue 42, item 1), as properties over random typed
// sequences: a value typed into an inspector field is staged exactly as shown or refused with
// nothing staged; "each σ ×" multiplies once; in the Transform panel one Stage (Enter or the
// button) sends exactly the form as shown, once, a second press sends nothing, and a centre-at
// never changes what is typed and pending.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { centreMove, emptyForm, formSpec, inspectorEdit, pendingText, scaleEachEdits, setSnap, settleAngle, snapDeg, stageForm, type TransformForm } from '../../../src/renderer/stores/typed-fields';
import { applyOps, type GaussianRecord } from '../../../src/renderer/stores/staging-ops';
import { OPACITY_MAX, OPACITY_MIN, POS_LIMIT, SCALE_MAX, SCALE_MIN } from '../../../src/shared/scene/policy';
import type { Vec3 } from '../../../src/shared/math/vec3';

const vec = (lo: number, hi: number): fc.Arbitrary<Vec3> => fc.tuple(fc.double({ min: lo, max: hi, noNaN: true }), fc.double({ min: lo, max: hi, noNaN: true }), fc.double({ min: lo, max: hi, noNaN: true }));
const record = fc.record({ pos: vec(-1, 1), scale: vec(0.01, 0.3) }).map(({ pos, scale }): GaussianRecord => ({ id: 0, pos, scale, quat: [1, 0, 0, 0], color: [0.5, 0.5, 0.5], opacity: 1 }));
/** What a person types: numbers with up to 4 decimals, sometimes out of range, sometimes not a number. */
const typedText = fc.oneof(fc.integer({ min: -20000, max: 20000 }).map((n) => String(n / 1e4)), fc.constantFrom('', 'abc', '1e', '2', '-3', '0.6'));

describe('inspector fields: staged exactly as shown, or refused with nothing staged', () => {
  it('position, scale (with and without the uniform lock) and opacity', () => {
    fc.assert(
      fc.property(record, fc.constantFrom('pos' as const, 'scale' as const, 'opacity' as const), fc.integer({ min: 0, max: 2 }), typedText, fc.boolean(), (r, field, axis, text, uniform) => {
        const edit = inspectorEdit(r, [0, 0, 0], field, axis, text, uniform);
        const v = Number(text);
        const [lo, hi] = field === 'pos' ? [-POS_LIMIT, POS_LIMIT] : field === 'scale' ? [SCALE_MIN, SCALE_MAX] : [OPACITY_MIN, OPACITY_MAX];
        if (text.trim() === '' || !Number.isFinite(v) || v < lo || v > hi) {
          expect('refused' in edit).toBe(true);
          return;
        }
        if ('refused' in edit) {
          // Only the uniform lock may refuse an in-range value (another axis would leave the range).
          expect(field === 'scale' && uniform).toBe(true);
          return;
        }
        const after = applyOps({ records: [r], nextId: 1 }, [{ kind: 'edit', label: 'typed', edits: [{ id: 0, fields: edit.ok }] }]).records[0];
        if (field === 'opacity') expect(after.opacity).toBe(v);
        else expect(after[field][axis]).toBe(v);
        if (field === 'scale' && uniform) for (let i = 0; i < 3; i++) expect(after.scale[i] / r.scale[i]).toBeCloseTo(v / r.scale[axis], 9);
        if (field === 'pos') for (let i = 0; i < 3; i++) if (i !== axis) expect(after.pos[i]).toBe(r.pos[i]);
      }),
    );
  });

  it('each σ × k multiplies every σ by k once (or refuses)', () => {
    fc.assert(
      fc.property(fc.array(record, { minLength: 2, maxLength: 5 }), fc.double({ min: 0.2, max: 3, noNaN: true }), (recs, k) => {
        const withIds = recs.map((r, i) => ({ ...r, id: i }));
        const edits = scaleEachEdits(withIds, k);
        if ('refused' in edits) {
          expect(withIds.some((r) => r.scale.some((s) => s * k < SCALE_MIN || s * k > SCALE_MAX))).toBe(true);
          return;
        }
        const after = applyOps({ records: withIds, nextId: withIds.length }, [{ kind: 'edit', label: 'each', edits: edits.ok }]).records;
        after.forEach((r, i) => {
          expect(r.pos).toEqual(withIds[i].pos);
          r.scale.forEach((s, j) => expect(s).toBeCloseTo(withIds[i].scale[j] * k, 12));
        });
      }),
    );
  });
});

type Event =
  | { kind: 'move' | 'turn'; axis: number; value: number }
  | { kind: 'factor'; value: number }
  | { kind: 'settle'; axis: number }
  | { kind: 'snap'; on: boolean }
  | { kind: 'centre'; axis: number; value: number }
  | { kind: 'enter-then-apply' }
  | { kind: 'stage' };

const event: fc.Arbitrary<Event> = fc.oneof(
  fc.record({ kind: fc.constantFrom('move' as const, 'turn' as const), axis: fc.integer({ min: 0, max: 2 }), value: fc.integer({ min: -200, max: 200 }).map((n) => n / 4) }),
  fc.record({ kind: fc.constant('factor' as const), value: fc.constantFrom(0.5, 0.8, 1, 1.25, 2, 0) }),
  fc.record({ kind: fc.constant('settle' as const), axis: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ kind: fc.constant('snap' as const), on: fc.boolean() }),
  fc.record({ kind: fc.constant('centre' as const), axis: fc.integer({ min: 0, max: 2 }), value: fc.integer({ min: -50, max: 50 }).map((n) => n / 100) }),
  fc.record({ kind: fc.constant('enter-then-apply' as const) }),
  fc.record({ kind: fc.constant('stage' as const) }),
);

describe('the Transform form: one Stage sends the form as shown, once; a centre-at keeps it', () => {
  it('over random typed sequences', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        let form: TransformForm = emptyForm();
        let centre: Vec3 = [0, 0, 0];
        const staged: { translate?: Vec3; rotateDeg?: number | Vec3; scale?: number | Vec3 }[] = [];
        for (const e of events) {
          const shownBefore = formSpec(form);
          if (e.kind === 'move' || e.kind === 'turn') {
            const next = [...form[e.kind]] as Vec3;
            next[e.axis] = e.value;
            form = { ...form, [e.kind]: next };
          } else if (e.kind === 'factor') form = { ...form, factor: e.value };
          else if (e.kind === 'settle') {
            form = settleAngle(form, e.axis);
            // What a settled angle shows is what the call would send.
            expect(form.turn[e.axis]).toBe(snapDeg(form.turn[e.axis], form.snap));
            expect(formSpec(form)).toEqual(shownBefore);
          } else if (e.kind === 'snap') form = setSnap(form, e.on);
          else if (e.kind === 'centre') {
            const spec = centreMove(e.value, centre[e.axis], e.axis);
            if (spec?.translate) centre = centre.map((c, i) => c + (spec.translate as Vec3)[i]) as Vec3;
            // The pending values are untouched by a centre-at.
            expect(formSpec(form)).toEqual(shownBefore);
          } else {
            const presses = e.kind === 'enter-then-apply' ? 2 : 1;
            for (let p = 0; p < presses; p++) {
              const expected = formSpec(form);
              const r = stageForm(form);
              if (p === 0 && Object.keys(expected).length && form.factor > 0) expect(r.spec).toEqual(expected);
              else expect(r.spec).toBeNull();
              if (r.spec) staged.push(r.spec);
              form = r.form;
            }
            // After a Stage nothing is pending (or the factor was refused and everything stays).
            if (form.factor > 0) expect(pendingText(form)).toBeNull();
          }
        }
        // Every staged spec is a form as it was shown: never empty, scale only as typed.
        for (const s of staged) {
          expect(Object.keys(s).length).toBeGreaterThan(0);
          if (typeof s.scale === 'number') expect([0.5, 0.8, 1.25, 2]).toContain(s.scale);
        }
      }),
    );
  });

  it('the issue-42 sequences: 1.25 Enter apply stages once; 0.8 then centre-at keeps the 0.8', () => {
    let form: TransformForm = { ...emptyForm(), factor: 1.25 };
    const first = stageForm(form);
    const second = stageForm(first.form);
    expect(first.spec).toEqual({ scale: 1.25 });
    expect(second.spec).toBeNull();
    form = { ...emptyForm(), factor: 0.8 };
    expect(centreMove(0.2, 0, 0)).toEqual({ translate: [0.2, 0, 0] });
    expect(pendingText(form)).toBe('scale 0.8');
    expect(stageForm(form).spec).toEqual({ scale: 0.8 });
  });
});
