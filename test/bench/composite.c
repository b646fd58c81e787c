/* Line-for-line C port of the CPU tile rasterizer's compositing loop as the lab runs it: the wasm
 * kernel of src/shared/raster/cpu/composite-kernel.ts (compositeTileRange of tiles.ts with the
 * kernel's own exp, exp_k below = expK there): the limit the lab's loop is measured against (issue
 * 40 item 4, docs/PERFORMANCE.md). Built and run by test/bench/composite-c.bench.ts (`cc -O2 -ffp-contract=off`).
 * Input: argv[1] a binary dump of one frame's tile lists and projected rows (layout below, little
 * endian, written by the bench); argv[2] where to write the image (rgb float32 [H, W, 3] then alpha
 * float32 [H, W]); argv[3] repetitions. Output on stdout: one line of JSON, the CPU ms of each
 * repetition. Invariant: the same float64 operations in the same order as the TypeScript loop, so
 * the images are bit for bit equal to the wasm kernel's (the bench checks it); exp is exp_k, the
 * kernel's (not the C library's: the JS loop's Math.exp differs from both in the last bits). The overdraw
 * count (`evaluated`, the debugger's) is left out: the bench composites without it. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define S 16

/* expK of composite-kernel.ts, operation for operation: Cody-Waite reduction by ln 2 (n rounded by
 * the 1.5 * 2^52 shift, read from v's low bits), 1/k! for k = 0..13 in Estrin's order, 2^(n-1) from
 * its exponent bits, times 2. The literals are the doubles JS gets for 1/k!. */
static const double EXP_C[14] = {1, 1, 0.5, 0.16666666666666666, 0.041666666666666664, 0.008333333333333333, 0.001388888888888889, 0.0001984126984126984, 0.0000248015873015873, 0.0000027557319223985893, 2.755731922398589e-7, 2.505210838544172e-8, 2.08767569878681e-9, 1.6059043836821613e-10};

static inline double exp_k(double x) {
  if (!(x > -708.0)) return x != x ? x : 0.0;
  if (x > 709.78) return INFINITY;
  const double v = x * 1.4426950408889634 + 6755399441055744.0;
  uint64_t vb;
  memcpy(&vb, &v, 8);
  const int32_t n = (int32_t)(uint32_t)vb;
  const double nf = v - 6755399441055744.0;
  const double r = x - nf * 6.93147180369123816490e-1 - nf * 1.90821492927058770002e-10;
  const double r2 = r * r;
  const double r4 = r2 * r2;
  const double r8 = r4 * r4;
  const double q0 = EXP_C[0] + EXP_C[1] * r + (EXP_C[2] + EXP_C[3] * r) * r2;
  const double q1 = EXP_C[4] + EXP_C[5] * r + (EXP_C[6] + EXP_C[7] * r) * r2;
  const double q2 = EXP_C[8] + EXP_C[9] * r + (EXP_C[10] + EXP_C[11] * r) * r2;
  const double q3 = EXP_C[12] + EXP_C[13] * r;
  const double p = q0 + q1 * r4 + (q2 + q3 * r4) * r8;
  const uint64_t sb = (uint64_t)(int64_t)(n + 1022) << 52;
  double scale;
  memcpy(&scale, &sb, 8);
  return p * scale * 2;
}

typedef struct {
  uint32_t width, height, tilesX, tilesY, rows, total;
  uint32_t *offsets, *ids;
  double *xy, *conic, *opacity, *qlim, *color;
  int32_t *radii;
} Frame;

static void composite_tiles(const Frame *f, uint32_t t0, uint32_t t1, float *rgb, float *alphaOut) {
  const int width = (int)f->width, height = (int)f->height, tilesX = (int)f->tilesX;
  const double *xy = f->xy, *conic = f->conic, *opacity = f->opacity, *qlim = f->qlim, *color = f->color;
  const int32_t *radii = f->radii;
  const uint32_t *offsets = f->offsets, *ids = f->ids;
  double T[S * S];
  double accR[S * S], accG[S * S], accB[S * S];
  int rowLive[S];
  for (uint32_t tile = t0; tile < t1; tile++) {
    const int tx = (int)(tile % (uint32_t)tilesX);
    const int ty = (int)((tile - (uint32_t)tx) / (uint32_t)tilesX);
    const int x0 = tx * S;
    const int y0 = ty * S;
    const int x1 = (width < x0 + S ? width : x0 + S) - 1;
    const int y1 = (height < y0 + S ? height : y0 + S) - 1;
    int live = (x1 - x0 + 1) * (y1 - y0 + 1);
    for (int q = 0; q < S; q++) rowLive[q] = x1 - x0 + 1;
    for (int l = 0; l < S * S; l++) T[l] = 1;
    memset(accR, 0, sizeof accR);
    memset(accG, 0, sizeof accG);
    memset(accB, 0, sizeof accB);
    const uint32_t end = offsets[tile + 1];
    for (uint32_t k = offsets[tile]; k < end && live > 0; k++) {
      const uint32_t g = ids[k];
      const double mx = xy[g * 2];
      const double my = xy[g * 2 + 1];
      const double fbx0 = floor(mx - radii[g * 2] - 0.5);
      const double fbx1 = ceil(mx + radii[g * 2] - 0.5);
      const double fby0 = floor(my - radii[g * 2 + 1] - 0.5);
      const double fby1 = ceil(my + radii[g * 2 + 1] - 0.5);
      const int bx0 = fbx0 > x0 ? (int)fbx0 : x0;
      const int bx1 = fbx1 < x1 ? (int)fbx1 : x1;
      const int by0 = fby0 > y0 ? (int)fby0 : y0;
      const int by1 = fby1 < y1 ? (int)fby1 : y1;
      const double a = conic[g * 3];
      const double b = conic[g * 3 + 1];
      const double c = conic[g * 3 + 2];
      const double o = opacity[g];
      const double cr = color[g * 3];
      const double cg = color[g * 3 + 1];
      const double cb = color[g * 3 + 2];
      const double qs = qlim[g] * 1.0001 + 1e-6;
      const double k2 = exp_k(-a);
      for (int py = by0; py <= by1; py++) {
        if (rowLive[py - y0] == 0) continue;
        const double dy = py + 0.5 - my;
        const double disc = b * b * dy * dy - a * (c * dy * dy - qs);
        if (disc < 0) continue;
        const double root = sqrt(disc);
        const double fa0 = floor(mx - 0.5 + (-b * dy - root) / a) - 1;
        const double fb0 = ceil(mx - 0.5 + (-b * dy + root) / a) + 1;
        const double fa = fa0 > bx0 ? fa0 : bx0;
        const double fb = fb0 < bx1 ? fb0 : bx1;
        if (!(fa <= fb)) continue;
        const int xa = (int)fa;
        const int row = (py - y0) * S - x0;
        const double dx0 = xa + 0.5 - mx;
        double e = exp_k(-0.5 * (a * dx0 * dx0 + 2 * b * dx0 * dy + c * dy * dy));
        double r = exp_k(-0.5 * (a * (2 * dx0 + 1) + 2 * b * dy));
        for (int l = row + xa, le = row + (int)fb; l <= le; l++) {
          const double vis = e;
          e *= r;
          r *= k2;
          const double t = T[l];
          const double ov = o * vis;
          const double alpha = ov < 0.99 ? ov : 0.99;
          if (alpha < 1.0 / 255 || t < 0) continue;
          const double next = t * (1 - alpha);
          if (next <= 1e-4) {
            T[l] = -t;
            live--;
            rowLive[py - y0]--;
            continue;
          }
          const double wgt = alpha * t;
          accR[l] += cr * wgt;
          accG[l] += cg * wgt;
          accB[l] += cb * wgt;
          T[l] = next;
        }
      }
    }
    for (int py = y0; py <= y1; py++) {
      for (int px = x0; px <= x1; px++) {
        const int l = (py - y0) * S + px - x0;
        const size_t p = (size_t)py * (size_t)width + (size_t)px;
        const double t = T[l] < 0 ? -T[l] : T[l];
        rgb[p * 3] = (float)(accR[l] + t);
        rgb[p * 3 + 1] = (float)(accG[l] + t);
        rgb[p * 3 + 2] = (float)(accB[l] + t);
        alphaOut[p] = (float)(1 - t);
      }
    }
  }
}

static void *take(FILE *in, size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p || fread(p, 1, bytes, in) != bytes) {
    fprintf(stderr, "composite: short input\n");
    exit(1);
  }
  return p;
}

static double cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: composite IN OUT REPS\n");
    return 2;
  }
  FILE *in = fopen(argv[1], "rb");
  if (!in) {
    fprintf(stderr, "composite: cannot open %s\n", argv[1]);
    return 1;
  }
  Frame f;
  uint32_t head[6];
  if (fread(head, 4, 6, in) != 6) {
    fprintf(stderr, "composite: short input\n");
    return 1;
  }
  f.width = head[0], f.height = head[1], f.tilesX = head[2], f.tilesY = head[3], f.rows = head[4], f.total = head[5];
  const size_t tiles = (size_t)f.tilesX * f.tilesY, rows = f.rows;
  f.offsets = take(in, (tiles + 1) * 4);
  f.ids = take(in, (size_t)f.total * 4);
  f.xy = take(in, rows * 16);
  f.conic = take(in, rows * 24);
  f.opacity = take(in, rows * 8);
  f.qlim = take(in, rows * 8);
  f.color = take(in, rows * 24);
  f.radii = take(in, rows * 8);
  fclose(in);
  const size_t npix = (size_t)f.width * f.height;
  float *img = calloc(npix * 4, sizeof(float));
  const int reps = atoi(argv[3]);
  printf("[");
  for (int rep = 0; rep < reps; rep++) {
    const double c0 = cpu_ms();
    composite_tiles(&f, 0, (uint32_t)tiles, img, img + npix * 3);
    printf("%s%.3f", rep ? "," : "", cpu_ms() - c0);
  }
  printf("]\n");
  FILE *out = fopen(argv[2], "wb");
  if (!out || fwrite(img, sizeof(float), npix * 4, out) != npix * 4) {
    fprintf(stderr, "composite: cannot write %s\n", argv[2]);
    return 1;
  }
  fclose(out);
  return 0;
}
