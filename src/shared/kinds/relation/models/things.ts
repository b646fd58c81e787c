// Static objects of the relation environments: tree, rock, tent, cactus, barrel, trash bin,
// traffic cone and fire hydrant.
// Output: validated ProceduralObject models standing on z = -1 (front +X where one exists).
import { fitted } from './fit';
import { ball, box, cone, cyl } from './kit';

export const tree = fitted('tree', [
    cyl([0, 0, -0.6], 0.12, 0.8, '#6b4526', undefined, 'trunk'),
    ball([0, 0, 0.15], [0.6, 0.6, 0.55], '#3f8a34', undefined, 'crown'),
    ball([0.25, 0.2, 0.45], 0.38, '#4f9d3e', undefined, 'crown'),
    ball([-0.25, -0.15, 0.4], 0.36, '#347a2c', undefined, 'crown'),
]);

export const rock = fitted('rock', [
    ball([0, 0, -0.6], [0.85, 0.65, 0.5], '#85837e', [0, 0, 20], 'rock'),
    ball([0.35, 0.25, -0.3], [0.4, 0.35, 0.32], '#96938c', [0, 15, 0], 'rock'),
    ball([-0.4, -0.2, -0.7], [0.4, 0.35, 0.28], '#74716c', undefined, 'rock'),
]);

export const tent = fitted('tent', [
    box([0, 0.33, -0.55], [1.5, 0.08, 1.05], '#e07b22', [38, 0, 0], 'canvas'),
    box([0, -0.33, -0.55], [1.5, 0.08, 1.05], '#e07b22', [-38, 0, 0], 'canvas'),
    box([0.74, 0, -0.72], [0.02, 0.3, 0.5], '#3a2a1c', undefined, 'door'),
    cyl([0, 0, -0.13], 0.03, 1.6, '#5a5a5a', [0, 90, 0], 'ridge'),
]);

export const cactus = fitted('cactus', [
    cyl([0, 0, -0.2], 0.18, 1.6, '#3d8a3a', undefined, 'stem'),
    ball([0, 0, 0.6], 0.18, '#3d8a3a', undefined, 'stem'),
    cyl([0, 0.32, -0.25], 0.1, 0.3, '#3d8a3a', [90, 0, 0], 'arms'),
    cyl([0, 0.42, 0.0], 0.1, 0.5, '#3d8a3a', undefined, 'arms'),
    ball([0, 0.42, 0.25], 0.1, '#3d8a3a', undefined, 'arms'),
    cyl([0, -0.32, -0.05], 0.1, 0.3, '#3d8a3a', [90, 0, 0], 'arms'),
    cyl([0, -0.42, 0.15], 0.1, 0.4, '#3d8a3a', undefined, 'arms'),
    ball([0, -0.42, 0.35], 0.1, '#3d8a3a', undefined, 'arms'),
]);

export const barrel = fitted('barrel', [
    cyl([0, 0, -0.2], 0.55, 1.6, '#8a5a2e', undefined, 'staves'),
    cyl([0, 0, -0.7], 0.57, 0.08, '#3a3a3c', undefined, 'hoops'),
    cyl([0, 0, 0.3], 0.57, 0.08, '#3a3a3c', undefined, 'hoops'),
    cyl([0, 0, 0.58], 0.5, 0.06, '#6e4624', undefined, 'lid'),
]);

export const trashBin = fitted('trash_bin', [
    cyl([0, 0, -0.25], 0.5, 1.5, '#2f6e4a', undefined, 'bin'),
    cyl([0, 0, 0.55], 0.56, 0.1, '#24563a', undefined, 'lid'),
    ball([0, 0, 0.6], [0.2, 0.2, 0.1], '#24563a', undefined, 'lid'),
    box([0.5, 0, 0.05], [0.05, 0.3, 0.18], '#f2f2f2', undefined, 'label'),
]);

export const trafficCone = fitted('cone', [
    box([0, 0, -0.96], [1, 1, 0.08], '#e8581c', undefined, 'base'),
    cone([0, 0, -0.05], 0.42, 1.82, '#f26a1f', undefined, 'cone'),
    cyl([0, 0, -0.05], 0.215, 0.22, '#f5f5f5', undefined, 'stripe'),
]);

export const hydrant = fitted('hydrant', [
    cyl([0, 0, -0.92], 0.45, 0.16, '#a3261f', undefined, 'base'),
    cyl([0, 0, -0.25], 0.33, 1.2, '#cf2e24', undefined, 'barrel'),
    ball([0, 0, 0.35], 0.33, '#cf2e24', undefined, 'dome'),
    cyl([0, 0, 0.72], 0.1, 0.12, '#a3261f', undefined, 'cap'),
    cyl([0, 0.42, -0.05], 0.13, 0.22, '#dcdcdc', [90, 0, 0], 'nozzles'),
    cyl([0, -0.42, -0.05], 0.13, 0.22, '#dcdcdc', [90, 0, 0], 'nozzles'),
    cyl([0.42, 0, -0.2], 0.17, 0.2, '#dcdcdc', [0, 90, 0], 'nozzles'),
]);
