// Agreement maths of double annotation: Cohen's kappa on hand-computed tables, pose pairing
// within the tolerance (each mark used once), the agreed verdict and what blocks it (a different
// answer, too few agreeing marks, no viewpoint both call answerable, a start marked answerable),
// and answerability by marked viewpoints.
import { describe, expect, it } from 'vitest';
import { MarkedAnswerability, angleGap, samePose } from '../../../../src/shared/kinds/search/answerability';
import { agreedAnswerable, agreementOf, AnnotationSchema, blindView, cohensKappa, pairMarks, type Annotation, type Mark } from '../../../../src/shared/kinds/search/annotation';

const pose = (x: number, y: number, yaw = 0, pitch = 0) => ({ x, y, z: 1.25, yaw, pitch });
const mark = (x: number, y: number, answerable: boolean, yaw = 0): Mark => ({ pose: pose(x, y, yaw), answerable });

function doc(first: Mark[], second: Mark[], answer = 'red', start = pose(0.5, 0.5)): Annotation {
  return AnnotationSchema.parse({
    id: 'q1', room: 'search/captures/gen-capture.json',
    question: { family: 'color', text: 'What colour is the cube on the table?', needs: ['cube'] },
    answer: { type: 'text', correct: 'red', synonyms: ['crimson'] }, start,
    first: { annotator: 'ann-a', started: 't0', finished: 't1', marks: first },
    second: { annotator: 'ann-b', started: 't2', finished: 't3', answer, marks: second },
  });
}

describe('annotation agreement', () => {
  it("computes Cohen's kappa as by hand and is null when chance agreement is 1", () => {
    // po = 3/4; pa = 1/2, pb = 1/4; pe = 1/2 * 1/4 + 1/2 * 3/4 = 1/2; kappa = (3/4 - 1/2) / (1/2) = 1/2.
    expect(cohensKappa([[true, true], [true, false], [false, false], [false, false]])).toBeCloseTo(0.5, 12);
    // Perfect agreement on a mixed table: kappa 1.
    expect(cohensKappa([[true, true], [false, false]])).toBeCloseTo(1, 12);
    // Systematic disagreement: po = 0, pe = 1/2 -> -1.
    expect(cohensKappa([[true, false], [false, true]])).toBeCloseTo(-1, 12);
    expect(cohensKappa([[true, true], [true, true]])).toBeNull();
    expect(cohensKappa([])).toBeNull();
  });

  it('pairs marks within the tolerance, nearest first, each mark once', () => {
    const a = [mark(1, 1, true), mark(1.1, 1, true)];
    const b = [mark(1.08, 1, true)];
    const pairs = pairMarks(a, b, { position: 0.125, angle: 15 });
    expect(pairs).toHaveLength(1);
    expect(pairs[0].a.pose.x).toBe(1.1);
    // Same place, turned 30 degrees: another viewpoint.
    expect(pairMarks([mark(1, 1, true, 0)], [mark(1, 1, true, 30)], { position: 0.125, angle: 15 })).toHaveLength(0);
    expect(angleGap(350, 10)).toBe(20);
    expect(samePose(pose(1, 1, 355), pose(1, 1, 5))).toBe(true);
  });

  it('agrees when the answers match and the shared marks mostly agree', () => {
    const first = [mark(2, 2, true), mark(2.25, 2, true), mark(1, 1, false), mark(0.5, 1, false), mark(3, 3, false)];
    const second = [mark(2, 2, true), mark(2.25, 2, true), mark(1, 1, false), mark(0.5, 1, false), mark(3, 3, true)];
    const ag = agreementOf(doc(first, second, 'Crimson'));
    expect(ag).toMatchObject({ answer: true, shared: 5, agreeing: 4, percent: 0.8, answerable: 2, agreed: true });
    // po = 0.8, pa = 0.4, pb = 0.6, pe = 0.24 + 0.24 = 0.48, kappa = 0.32 / 0.52.
    expect(ag.kappa).toBeCloseTo(0.32 / 0.52, 12);
    expect(agreedAnswerable(doc(first, second))).toEqual([pose(2, 2), pose(2.25, 2)]);
  });

  it('does not agree on a different answer, too few agreeing marks, no shared answerable view, or an answerable start', () => {
    const first = [mark(2, 2, true), mark(1, 1, false)];
    expect(agreementOf(doc(first, first, 'blue')).agreed).toBe(false);
    expect(agreementOf(doc(first, [mark(2, 2, false), mark(1, 1, true)])).agreed).toBe(false);
    // One viewpoint both call answerable, but only 1 of 3 shared marks agree (below 80%).
    const three = [mark(2, 2, true), mark(1, 1, false), mark(3, 1, false)];
    expect(agreementOf(doc(three, [mark(2, 2, true), mark(1, 1, true), mark(3, 1, true)]))).toMatchObject({ answerable: 1, agreeing: 1, shared: 3, agreed: false });
    expect(agreementOf(doc([mark(1, 1, false)], [mark(1, 1, false)])).agreed).toBe(false);
    expect(agreementOf(doc(first, first, 'red', pose(2, 2))).agreed).toBe(false);
    expect(agreementOf(doc(first, first)).agreed).toBe(true);
  });

  it('hides the answer and the marks from the verifier', () => {
    const view = blindView(doc([mark(2, 2, true)], []));
    expect(JSON.stringify(view)).not.toMatch(/red|crimson|marks/);
    expect(view.answerType).toBe('text');
  });

  it('answers by marked viewpoints within the tolerance', () => {
    const a = new MarkedAnswerability([pose(2, 2, 90, -30)]);
    expect(a.answerable(pose(2.1, 2, 100, -30))).toBe(true);
    expect(a.answerable(pose(2.25, 2, 90, -30))).toBe(false);
    expect(a.answerable(pose(2, 2, 90, 0))).toBe(false);
  });
});
