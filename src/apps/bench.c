/* bench.c — the benchmark-only entry points of sqz_bench.h: copy bandwidth, simplex touch passes, CUDA tile maps, points. */
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/registry.h"
#include "simplex/simplex_plan.h"
#include "sqz_bench.h"

int sqz_bench_copy_bandwidth(sqz_context *ctx, uint64_t max_bytes, double *bytes_per_s, uint64_t *bytes_used) {
  if (!ctx || !bytes_per_s) return sqz__null_arg(ctx, "sqz_bench_copy_bandwidth");
  uint64_t n = max_bytes ? max_bytes : (uint64_t)1 << (ctx->ops->host_memory ? 28 : 30);
  while (n > 1 && (n > ctx->max_alloc || n > ctx->global_mem / 4)) n >>= 1;
  *bytes_per_s = 0.0;
  if (bytes_used) *bytes_used = n;
  sqz__lock(ctx);
  int st = ctx->ops->copy_rate(ctx, n, bytes_per_s);
  sqz__unlock(ctx);
  return st;
}

int sqz_bench_simplex_touch(sqz_field *field, int accumulate, uint64_t steps) {
  if (!field) return sqz__null_arg(NULL, "sqz_bench_simplex_touch");
  if (field->dom->kind == SQZ_DOMAIN_FRACTAL || field->type != SQZ_U8)
    return sqz__fail(field->ctx, SQZ_ERR_INVALID_ARGUMENT, "the map and accumulate workloads need a SQZ_U8 simplex field");
  if (field->parts)
    return sqz__fail(field->ctx, SQZ_ERR_UNSUPPORTED, "the map and accumulate workloads run on a field in one buffer, "
                     "and %s is stored in %llu parts", field->dom->spec, (unsigned long long)sqz_field_parts(field));
  sqz__lock(field->ctx);
  int st = field->ctx->ops->touch(field, accumulate, steps);
  sqz__unlock(field->ctx);
  return st;
}

int sqz_bench_fractal_maps(sqz_context *ctx, const sqz_domain *dom, uint32_t level, const char *map, uint64_t tile0,
                           uint64_t count, uint64_t *checksum, double *kernel_s) {
  if (!ctx || !dom || !map) return sqz__null_arg(ctx, "sqz_bench_fractal_maps");
  const sqz_map_info *m = sqz__map_find(map);
  /* the tile maps of the backend that has them alone (the registry's cuda maps); another backend
   * refuses them from its own table entry */
  if (!m || !(m->families & SQZ_FAMILY_FRACTAL) || !m->backend || strcmp(m->backend, "cuda") != 0) {
    char maps[64];
    sqz__map_names(SQZ_FAMILY_FRACTAL, 2, "cuda", 1, ", ", " or ", maps, sizeof maps);
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "map '%s' is not a cuda tile map (%s)", map, maps);
  }
  if (dom->kind != SQZ_DOMAIN_FRACTAL || level > (uint32_t)dom->fr.r)
    return sqz__fail(ctx, SQZ_ERR_INVALID_ARGUMENT, "tile maps run on the grid levels 0..R of a fractal, not level %u "
                     "of %s", level, dom->spec);
  uint64_t sum = 0;
  double s = 0.0;
  sqz__lock(ctx);
  int st = ctx->ops->tile_maps(ctx, &dom->fr, level, map, tile0, count, &sum, &s);
  sqz__unlock(ctx);
  if (checksum) *checksum = sum;
  if (kernel_s) *kernel_s = s;
  return st;
}

int sqz_bench_random_points(uint64_t n, uint64_t seed, float *xy) {
  if (!xy && n) return sqz__null_arg(NULL, "sqz_bench_random_points");
  for (uint64_t i = 0; i < 2 * n; i++) xy[i] = (float)(sqz_mix64(seed + i) >> 40) / 16777216.0f * 1000.0f;
  return SQZ_OK;
}
