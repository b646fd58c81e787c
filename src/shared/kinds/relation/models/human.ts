// The person of the allocentric task: legs, torso, arms, head and a cap whose peak, nose and
// feet point along the facing direction (+X), so a viewer can see which way the person faces.
// Output: a validated ProceduralObject standing on z = -1.
import { fitted } from './fit';
import { ball, box, cyl, rod } from './kit';

const SKIN = '#e0b08a';
export const human = fitted('human', [
    ...[1, -1].flatMap((sy) => [
      rod([0, sy * 0.09, -0.05], [0, sy * 0.1, -0.92], 0.075, '#2c3e66', 'legs'),
      box([0.07, sy * 0.1, -0.95], [0.26, 0.11, 0.1], '#1b1b1b', undefined, 'feet'),
      rod([0, sy * 0.25, 0.5], [0.08, sy * 0.3, -0.05], 0.055, '#c8402f', 'arms'),
      ball([0.09, sy * 0.31, -0.08], 0.055, SKIN, undefined, 'hands'),
    ]),
    ball([0, 0, 0.25], [0.14, 0.24, 0.36], '#c8402f', undefined, 'torso'),
    cyl([0, 0, 0.62], 0.06, 0.12, SKIN, undefined, 'neck'),
    ball([0, 0, 0.78], 0.15, SKIN, undefined, 'head'),
    ball([0.15, 0, 0.76], 0.035, '#c98e66', undefined, 'nose'),
    ...[1, -1].map((sy) => ball([0.13, sy * 0.055, 0.8], 0.022, '#1b1b1b', undefined, 'eyes')),
    ball([-0.01, 0, 0.86], [0.155, 0.155, 0.09], '#2f5fb0', undefined, 'cap'),
    box([0.16, 0, 0.86], [0.18, 0.2, 0.03], '#2f5fb0', undefined, 'cap'),
]);
