// The benches' synthetic room lives with `splatlab bench` (src/main/raster/room-scene.ts).
export { roomCamera, roomScene } from '../../src/main/raster/room-scene';
