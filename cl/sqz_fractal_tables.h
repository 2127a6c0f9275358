/* sqz_fractal_tables.h — the fractal's __constant tables (from the prelude) and the map macros every fractal kernel file uses. */
#ifndef SQZ_FRACTAL_TABLES_H
#define SQZ_FRACTAL_TABLES_H
/* OpenCL only, after sqz_common.h, sqz_fractal.h and a prelude defining SQZ_FR_S, SQZ_FR_K, SQZ_FR_HL,
 * SQZ_FR_HNU, SQZ_FR_SPOW, SQZ_FR_KPOW (backends/opencl/engine_fractal.c). */
__constant sqz_i32 sqz_fr_hl[] = SQZ_FR_HL;
__constant sqz_i32 sqz_fr_hnu[] = SQZ_FR_HNU;
__constant sqz_u32 sqz_fr_spow[] = SQZ_FR_SPOW;
__constant sqz_u64 sqz_fr_kpow[] = SQZ_FR_KPOW;

#define FR_CONTAINS(levels, x, y) sqz_fr_contains(SQZ_FR_S, sqz_fr_hnu, (levels), (x), (y))
#define FR_LAMBDA(levels, c, x, y) sqz_fr_lambda(SQZ_FR_S, SQZ_FR_K, sqz_fr_hl, (levels), (c), (x), (y))
#define FR_LAMBDA_TERM(i, c) sqz_fr_lambda_term(SQZ_FR_K, sqz_fr_hl, sqz_fr_spow[i], sqz_fr_kpow[i], (c))
#endif
