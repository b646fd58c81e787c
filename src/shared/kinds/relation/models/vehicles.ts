// Vehicles of the relation environments: truck, taxi, bike and vespa, with wheels on the
// object's Y axis and the front towards +X.
// Output: validated ProceduralObject models standing on z = -1.
import { fitted } from './fit';
import { ball, box, cyl, rod, wheel } from './kit';

export const truck = fitted('truck', [
    box([0.62, 0, -0.35], [0.55, 0.78, 0.8], '#c43a2f', undefined, 'cab'),
    box([0.9, 0, -0.18], [0.02, 0.64, 0.34], '#9ec3dc', undefined, 'windscreen'),
    box([-0.3, 0, -0.3], [1.3, 0.82, 0.95], '#d9d9d4', undefined, 'cargo'),
    box([0.1, 0, -0.74], [1.85, 0.7, 0.12], '#3a3a3e', undefined, 'chassis'),
    ...[0.62, -0.15, -0.6].flatMap((x) => [1, -1].map((sy) => wheel([x, sy * 0.36, -0.8], 0.2, 0.14))),
    box([0.905, 0.26, -0.6], [0.02, 0.12, 0.08], '#f5e27a', undefined, 'lights'),
    box([0.905, -0.26, -0.6], [0.02, 0.12, 0.08], '#f5e27a', undefined, 'lights'),
]);

export const taxi = fitted('taxi', [
    box([0, 0, -0.55], [1.8, 0.8, 0.36], '#f2c21b', undefined, 'body'),
    box([-0.08, 0, -0.2], [0.95, 0.74, 0.36], '#f2c21b', undefined, 'cabin'),
    box([0.4, 0, -0.2], [0.02, 0.66, 0.28], '#9ec3dc', [0, -30, 0], 'windows'),
    box([-0.08, 0, -0.2], [0.8, 0.76, 0.22], '#7fa4bd', undefined, 'windows'),
    box([-0.08, 0, 0.03], [0.26, 0.2, 0.1], '#fafafa', undefined, 'sign'),
    box([0, 0, -0.5], [1.81, 0.81, 0.06], '#1c1c1e', undefined, 'checker'),
    ...[0.55, -0.55].flatMap((x) => [1, -1].map((sy) => wheel([x, sy * 0.36, -0.8], 0.19, 0.14))),
    box([0.905, 0.28, -0.5], [0.02, 0.12, 0.08], '#fff6c9', undefined, 'lights'),
    box([0.905, -0.28, -0.5], [0.02, 0.12, 0.08], '#fff6c9', undefined, 'lights'),
]);

export const bike = fitted('bike', [
    wheel([0.55, 0, -0.58], 0.4, 0.05, '#202022'),
    wheel([-0.55, 0, -0.58], 0.4, 0.05, '#202022'),
    wheel([0.55, 0, -0.58], 0.3, 0.06, '#c9ccd1'),
    wheel([-0.55, 0, -0.58], 0.3, 0.06, '#c9ccd1'),
    rod([-0.55, 0, -0.58], [0, 0, -0.5], 0.03, '#1f7bd1', 'frame'),
    rod([0, 0, -0.5], [-0.12, 0, -0.05], 0.03, '#1f7bd1', 'frame'),
    rod([-0.12, 0, -0.1], [0.42, 0, -0.1], 0.03, '#1f7bd1', 'frame'),
    rod([0, 0, -0.5], [0.42, 0, -0.1], 0.03, '#1f7bd1', 'frame'),
    rod([0.42, 0, -0.1], [0.55, 0, -0.58], 0.03, '#1f7bd1', 'frame'),
    rod([0.42, 0, -0.1], [0.38, 0, 0.08], 0.025, '#303033', 'stem'),
    rod([0.38, -0.22, 0.08], [0.38, 0.22, 0.08], 0.025, '#303033', 'handlebar'),
    ball([-0.14, 0, -0.02], [0.13, 0.06, 0.04], '#303033', undefined, 'saddle'),
]);

export const vespa = fitted('vespa', [
    wheel([0.55, 0, -0.78], 0.22, 0.1),
    wheel([-0.5, 0, -0.78], 0.22, 0.1),
    ball([-0.35, 0, -0.5], [0.42, 0.24, 0.26], '#7fd1c1', undefined, 'body'),
    box([0.12, 0, -0.62], [0.6, 0.3, 0.06], '#5bb3a3', undefined, 'floor'),
    box([0.45, 0, -0.25], [0.08, 0.36, 0.75], '#7fd1c1', [0, -12, 0], 'shield'),
    ball([0.58, 0, -0.62], [0.16, 0.14, 0.1], '#7fd1c1', undefined, 'fender'),
    ball([-0.3, 0, -0.2], [0.3, 0.17, 0.06], '#5a3a26', undefined, 'seat'),
    rod([0.5, -0.28, 0.16], [0.5, 0.28, 0.16], 0.03, '#dadde2', 'handlebar'),
    cyl([0.55, 0, 0.16], 0.07, 0.08, '#fff6c9', [0, 90, 0], 'headlight'),
]);
