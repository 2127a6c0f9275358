/* consumer.c — a tiny program built against the installed sqz: a random field on the cpu backend, the registry, sqz_bench.h, sqz_opencl.h. */
#include <stdio.h>
#include <string.h>

#include <sqz.h>
#include <sqz_bench.h>
#include <sqz_opencl.h>

int main(void) {
  if (sqz_version_number() != SQZ_VERSION_NUMBER || strcmp(sqz_version_string(), SQZ_VERSION_STRING) != 0) {
    fprintf(stderr, "header %s and library %s differ\n", SQZ_VERSION_STRING, sqz_version_string());
    return 1;
  }
  sqz_context *ctx = NULL;
  sqz_domain *dom = NULL;
  sqz_field *f = NULL;
  uint64_t live = 0;
  int st = sqz_context_create("cpu", NULL, &ctx);
  if (st == SQZ_OK) st = sqz_domain_parse(ctx, "triangle:16", &dom);
  if (st == SQZ_OK) st = sqz_field_create(dom, SQZ_U8, "compact", &f);
  if (st == SQZ_OK) st = sqz_field_fill_random(f, 0.5, 1);
  if (st == SQZ_OK) st = sqz_field_count(f, &live);
  if (st == SQZ_OK && (live == 0 || live > sqz_domain_cells(dom))) st = SQZ_ERR_INTERNAL;
  char maps[128];
  double bw = 0;
  if (st == SQZ_OK && sqz_map_list(SQZ_FAMILY_SIMPLEX, 2, "cpu", maps, sizeof maps) <= 0) st = SQZ_ERR_INTERNAL;
  if (st == SQZ_OK) st = sqz_bench_copy_bandwidth(ctx, 1 << 16, &bw, NULL);
  cl_mem mem = NULL; /* the interop header is installed; a cpu field has no cl_mem */
  if (st == SQZ_OK && sqz_field_cl_mem(f, &mem) != SQZ_ERR_UNSUPPORTED) st = SQZ_ERR_INTERNAL;
  printf("consumer: %s, %llu of %llu cells alive, maps %s, status %s\n", sqz_version_string(), (unsigned long long)live,
         dom ? (unsigned long long)sqz_domain_cells(dom) : 0ULL, st == SQZ_OK ? maps : "-", sqz_status_name(st));
  sqz_field_release(f);
  sqz_domain_release(dom);
  sqz_context_release(ctx);
  return st == SQZ_OK ? 0 : 1;
}
