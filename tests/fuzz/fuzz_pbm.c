/* fuzz_pbm.c — the PBM state reader (sqz_field_load_pbm, P1 and P4) into u8 fields of a triangle, a tetrahedron
 * (N x N*N image) and a fractal on the cpu backend: the first byte picks the domain, the rest is the file. A
 * file is loaded or refused with a message; a loaded state holds 0/1 and live cells only on domain cells. */
#include "fuzz_util.h"
#include "sqz.h"

static sqz_context *ctx;
static sqz_domain *doms[3];
static sqz_field *fields[3];
static unsigned char image[81]; /* the largest embedding: 8 x 8, 4 x 4 x 4, 9 x 9 */
static const char *const specs[] = {"triangle:8", "tetrahedron:4", "fractal:sierpinski-carpet:2"};

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  if (sqz_context_create("cpu", NULL, &ctx) != SQZ_OK) abort();
  for (int i = 0; i < 3; i++)
    if (sqz_domain_parse(ctx, specs[i], &doms[i]) != SQZ_OK ||
        sqz_field_create(doms[i], SQZ_U8, "compact", &fields[i]) != SQZ_OK)
      abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  int which = data[0] % 3;
  sqz_field *f = fields[which];
  const char *path = sqz_fuzz_file(data + 1, size - 1);
  int st = sqz_field_load_pbm(f, path);
  if (st != SQZ_OK) {
    SQZ_FUZZ_CHECK(st == SQZ_ERR_PARSE || st == SQZ_ERR_OUTSIDE_DOMAIN);
    SQZ_FUZZ_CHECK(*sqz_last_error(ctx) != 0);
    return 0;
  }
  uint64_t side = sqz_domain_side(doms[which]), dims = (uint64_t)sqz_domain_dims(doms[which]);
  uint64_t n = dims == 3 ? side * side * side : side * side, live = 0, count = 0;
  SQZ_FUZZ_CHECK(sqz_field_read(f, image, (size_t)n) == SQZ_OK);
  for (uint64_t i = 0; i < n; i++) {
    SQZ_FUZZ_CHECK(image[i] <= 1);
    if (image[i])
      SQZ_FUZZ_CHECK(sqz_domain_contains(doms[which], i % side, (i / side) % side, dims == 3 ? i / (side * side) : 0));
    live += image[i];
  }
  SQZ_FUZZ_CHECK(sqz_field_count(f, &count) == SQZ_OK && count == live);
  return 0;
}
