// Reassembly scramble: k-means parts, random placement and turn, shuffled labels, pose truth.
export { kmeans, kmeansPlusPlus, DEFAULT_KMEANS_MAX_ITER, type KMeansResult } from './kmeans';
export {
  scramble, scrambleSeed, partLabels, rotateAboutZ, DEFAULT_PARTS, DEFAULT_SCRAMBLE_SEED, POSITION_LIMIT, CENTROID_RANGE,
  MIN_TURN_DEG, MAX_TURN_DEG, MIN_SEPARATION, type ScrambleOptions, type ScrambleResult,
} from './scramble';
export {
  partHeadingError, relativeHeadingDeg, PartsTruthSchema, PartTruthSchema,
  type PartsTruth, type PartTruth, type PartPoseError,
} from './truth';
