/* cpu_life_rows.c — the cpu engine's Life row loops: u8 neighbour counts and the rule in chunks that stay in L1, written so the compiler vectorises every inner loop. */
#include <string.h>

#include "backends/cpu/cpu_engine.h"
#include "backends/cpu/cpu_life_rows.h"

#if defined(SQZ_CPU_TARGET_CLONES) && defined(__x86_64__)
#include <immintrin.h>
#define SQZ_CPU_GATHER_AVX2 1
/* Eight bytes per step: eight 32-bit loads by one gather (each reads its byte and the 3 after
 * it), their low bytes packed. */
__attribute__((target("avx2"))) static void gather_avx2(uint8_t *out, const uint8_t *res, const uint32_t *pos,
                                                       uint32_t n) {
  const __m256i low = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1,
                                       -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  uint32_t l = 0;
  for (; l + 8 <= n; l += 8) {
    __m256i v = _mm256_i32gather_epi32((const int *)res, _mm256_loadu_si256((const __m256i *)(pos + l)), 1);
    v = _mm256_shuffle_epi8(v, low);
    uint32_t a = (uint32_t)_mm256_extract_epi32(v, 0), b = (uint32_t)_mm256_extract_epi32(v, 4);
    memcpy(out + l, &a, 4);
    memcpy(out + l + 4, &b, 4);
  }
  for (; l < n; l++) out[l] = res[pos[l]];
}

/* A 4 x 4 block of a scale-2 tile from its kk = k^2 cells (digit order) with one byte shuffle,
 * stored as four rows of 4 bytes; and back. Reads and writes stay inside the tile's n cells. */
__attribute__((target("avx2"))) static void blocks_in_avx2(uint8_t *cache, uint32_t w, const uint8_t *own, uint32_t n,
                                                          const sqz_cpu_blocks *bl) {
  const __m128i m = _mm_loadu_si128((const __m128i *)bl->in);
  for (uint32_t g = 0, at = 0; at < n; g++, at += bl->kk) {
    uint8_t tmp[16] = {0};
    __m128i v;
    if (at + 16 <= n) v = _mm_loadu_si128((const __m128i *)(own + at));
    else v = (memcpy(tmp, own + at, bl->kk), _mm_loadu_si128((const __m128i *)tmp));
    v = _mm_shuffle_epi8(v, m);
    uint8_t *c = cache + bl->base[g];
    uint32_t r0 = (uint32_t)_mm_cvtsi128_si32(v), r1 = (uint32_t)_mm_extract_epi32(v, 1);
    uint32_t r2 = (uint32_t)_mm_extract_epi32(v, 2), r3 = (uint32_t)_mm_extract_epi32(v, 3);
    memcpy(c, &r0, 4);
    memcpy(c + w, &r1, 4);
    memcpy(c + 2 * w, &r2, 4);
    memcpy(c + 3 * w, &r3, 4);
  }
}

__attribute__((target("avx2"))) static void blocks_out_avx2(uint8_t *out, uint32_t n, const uint8_t *res, uint32_t w,
                                                           const sqz_cpu_blocks *bl) {
  const __m128i m = _mm_loadu_si128((const __m128i *)bl->out);
  for (uint32_t g = 0, at = 0; at < n; g++, at += bl->kk) {
    const uint8_t *c = res + bl->base[g];
    uint32_t r[4];
    for (int i = 0; i < 4; i++) memcpy(&r[i], c + (size_t)i * w, 4);
    __m128i v = _mm_shuffle_epi8(_mm_setr_epi32((int)r[0], (int)r[1], (int)r[2], (int)r[3]), m);
    if (at + 16 <= n) { /* the bytes past kk are rewritten by the next block */
      _mm_storeu_si128((__m128i *)(out + at), v);
    } else {
      uint8_t tmp[16];
      _mm_storeu_si128((__m128i *)tmp, v);
      memcpy(out + at, tmp, bl->kk);
    }
  }
}

/* sqz__cpu_life_spans for rules whose counts all lie below 16: per 32 bytes the neighbour sum c
 * and two byte-table lookups at c & 31 (pshufb; an index of 16 or more, pushed past 127 by + 0x70,
 * reads 0), a dead cell's rule and its change for a live one (self != 0): the same bytes as the
 * compares for any cell values. */
__attribute__((target("avx2"))) static void life_spans_avx2(const uint8_t *cache, uint8_t *res, uint32_t w,
                                                           const uint32_t *spans, uint32_t n_spans, uint32_t birth,
                                                           uint32_t survive) {
  uint8_t tb[16], tx[16];
  for (int i = 0; i < 16; i++) {
    tb[i] = (uint8_t)(birth >> i & 1u);
    tx[i] = (uint8_t)((birth ^ survive) >> i & 1u);
  }
  const __m256i dead_t = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)tb));
  const __m256i change_t = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)tx));
  const __m256i low5 = _mm256_set1_epi8(31), push = _mm256_set1_epi8(0x70), zero = _mm256_setzero_si256();
  for (uint32_t i = 0; i < n_spans; i++)
    for (uint32_t x0 = 0; x0 < spans[2 * i + 1]; x0 += 32) {
      const uint8_t *a = cache + spans[2 * i] + x0 - w - 1, *b = a + w, *c = b + w;
#define SQZ_LD(p) _mm256_loadu_si256((const __m256i *)(p))
      __m256i n = _mm256_add_epi8(_mm256_add_epi8(_mm256_add_epi8(SQZ_LD(a), SQZ_LD(a + 1)), SQZ_LD(a + 2)),
                                  _mm256_add_epi8(SQZ_LD(b), SQZ_LD(b + 2)));
      n = _mm256_add_epi8(n, _mm256_add_epi8(_mm256_add_epi8(SQZ_LD(c), SQZ_LD(c + 1)), SQZ_LD(c + 2)));
      __m256i idx = _mm256_add_epi8(_mm256_and_si256(n, low5), push);
      __m256i dead = _mm256_shuffle_epi8(dead_t, idx), change = _mm256_shuffle_epi8(change_t, idx);
      __m256i empty = _mm256_cmpeq_epi8(SQZ_LD(b + 1), zero);
#undef SQZ_LD
      _mm256_storeu_si256((__m256i *)(res + spans[2 * i] + x0),
                          _mm256_xor_si256(dead, _mm256_andnot_si256(empty, change)));
    }
}
#endif

int sqz__cpu_blocks_in(uint8_t *cache, uint32_t w, const uint8_t *own, uint32_t n, const sqz_cpu_blocks *bl) {
#ifdef SQZ_CPU_GATHER_AVX2
  if (bl->kk && __builtin_cpu_supports("avx2")) {
    blocks_in_avx2(cache, w, own, n, bl);
    return 1;
  }
#endif
  return 0;
}

int sqz__cpu_blocks_out(uint8_t *out, uint32_t n, const uint8_t *res, uint32_t w, const sqz_cpu_blocks *bl) {
#ifdef SQZ_CPU_GATHER_AVX2
  if (bl->kk && __builtin_cpu_supports("avx2")) {
    blocks_out_avx2(out, n, res, w, bl);
    return 1;
  }
#endif
  return 0;
}

void sqz__cpu_gather_bytes(uint8_t *out, const uint8_t *res, const uint32_t *pos, uint32_t n) {
#ifdef SQZ_CPU_GATHER_AVX2
  if (__builtin_cpu_supports("avx2")) {
    gather_avx2(out, res, pos, n);
    return;
  }
#endif
  for (uint32_t l = 0; l < n; l++) out[l] = res[pos[l]];
}

#define SQZ_LIFE_CHUNK 512u /* cells per chunk: the counts and the result of a chunk in L1 */

/* key = the count modulo 32, plus 32 for a live cell: the rule's bit index into birth | survive << 32. */
#define SQZ_LIFE_KEY(self, count) ((uint8_t)(((count) & 31u) | ((self) != 0 ? 32u : 0u)))

/* The keys at which the rule gives 1 (3 for B3/S23); returns how many. */
static inline int life_keys(uint32_t birth, uint32_t survive, uint8_t keys[64]) {
  uint64_t rule = (uint64_t)birth | (uint64_t)survive << 32;
  int n = 0;
  for (; rule; rule &= rule - 1u) keys[n++] = (uint8_t)__builtin_ctzll(rule); /* the set bits only: called per row */
  return n;
}

/* res[x] = the rule at key[x] (0 where mask, when not NULL, is 0), x < m: a compare per key. */
static inline __attribute__((always_inline)) void life_rule(const uint8_t *restrict key, uint8_t *restrict res,
                                                            uint32_t m, const uint8_t *keys, int n_keys,
                                                            const uint8_t *restrict mask) {
  const uint8_t k0 = n_keys ? keys[0] : 0xffu; /* no key: no byte matches 0xff (keys are below 64) */
  for (uint32_t x = 0; x < m; x++) res[x] = key[x] == k0 ? 1u : 0u;
  for (int i = 1; i < n_keys; i++) {
    const uint8_t k = keys[i];
    for (uint32_t x = 0; x < m; x++) res[x] |= key[x] == k ? 1u : 0u;
  }
  if (mask)
    for (uint32_t x = 0; x < m; x++) res[x] &= mask[x];
}

SQZ_CPU_CLONES void sqz__cpu_life_row8(const uint8_t *a, const uint8_t *b, const uint8_t *c, uint8_t *out, uint64_t len,
                                       uint32_t birth, uint32_t survive, const uint8_t *mask) {
  uint8_t cnt[SQZ_LIFE_CHUNK], keys[64];
  int n_keys = life_keys(birth, survive, keys);
  for (uint64_t x0 = 0; x0 < len; x0 += SQZ_LIFE_CHUNK) {
    uint32_t m = len - x0 < SQZ_LIFE_CHUNK ? (uint32_t)(len - x0) : SQZ_LIFE_CHUNK;
    const uint8_t *restrict pa = a + x0, *restrict pb = b + x0, *restrict pc = c + x0;
    for (uint32_t x = 0; x < m; x++)
      cnt[x] = SQZ_LIFE_KEY(pb[x + 1], pa[x] + pa[x + 1] + pa[x + 2] + pb[x] + pb[x + 2] + pc[x] + pc[x + 1] + pc[x + 2]);
    life_rule(cnt, out + x0, m, keys, n_keys, mask ? mask + x0 : NULL);
  }
}

SQZ_CPU_CLONES void sqz__cpu_life_spans(const uint8_t *cache, uint8_t *res, uint32_t w, const uint32_t *spans,
                                        uint32_t n_spans, uint32_t birth, uint32_t survive) {
#ifdef SQZ_CPU_GATHER_AVX2
  if (((birth | survive) >> 16) == 0 && __builtin_cpu_supports("avx2")) {
    life_spans_avx2(cache, res, w, spans, n_spans, birth, survive);
    return;
  }
#endif
  uint8_t keys[64];
  int n_keys = life_keys(birth, survive, keys);
  const uint8_t k0 = n_keys ? keys[0] : 0xffu;
  for (uint32_t i = 0; i < n_spans; i++)
    for (uint32_t x0 = 0; x0 < spans[2 * i + 1]; x0 += SQZ_LIFE_SPAN) { /* whole vectors, no remainder loops */
      const uint8_t *restrict a = cache + spans[2 * i] + x0 - w - 1, *restrict b = a + w, *restrict c = b + w;
      uint8_t key[SQZ_LIFE_SPAN], *restrict o = res + spans[2 * i] + x0;
      for (uint32_t x = 0; x < SQZ_LIFE_SPAN; x++)
        key[x] = SQZ_LIFE_KEY(b[x + 1], a[x] + a[x + 1] + a[x + 2] + b[x] + b[x + 2] + c[x] + c[x + 1] + c[x + 2]);
      for (uint32_t x = 0; x < SQZ_LIFE_SPAN; x++) o[x] = key[x] == k0 ? 1u : 0u;
      for (int k = 1; k < n_keys; k++) {
        const uint8_t kk = keys[k];
        for (uint32_t x = 0; x < SQZ_LIFE_SPAN; x++) o[x] |= key[x] == kk ? 1u : 0u;
      }
    }
}

SQZ_CPU_CLONES void sqz__cpu_life_row26(const uint8_t *const rows[9], uint8_t *out, uint64_t len, uint32_t birth,
                                        uint32_t survive) {
  uint8_t col[SQZ_LIFE_CHUNK + 2], cnt[SQZ_LIFE_CHUNK], keys[64];
  int n_keys = life_keys(birth, survive, keys);
  for (uint64_t x0 = 0; x0 < len; x0 += SQZ_LIFE_CHUNK) {
    uint32_t m = len - x0 < SQZ_LIFE_CHUNK ? (uint32_t)(len - x0) : SQZ_LIFE_CHUNK;
    m = (m + SQZ_LIFE_SPAN - 1u) & ~(SQZ_LIFE_SPAN - 1u); /* whole vectors: short rows never reach a remainder loop */
    const uint8_t *restrict r0 = rows[0] + x0, *restrict r1 = rows[1] + x0, *restrict r2 = rows[2] + x0;
    const uint8_t *restrict r3 = rows[3] + x0, *restrict r4 = rows[4] + x0, *restrict r5 = rows[5] + x0;
    const uint8_t *restrict r6 = rows[6] + x0, *restrict r7 = rows[7] + x0, *restrict r8 = rows[8] + x0;
    for (uint32_t x = 0; x < m + 2u; x++) /* the 9 rows' column sums (<= 9), each column once */
      col[x] = (uint8_t)(r0[x] + r1[x] + r2[x] + r3[x] + r4[x] + r5[x] + r6[x] + r7[x] + r8[x]);
    for (uint32_t x = 0; x < m; x++) /* the 27-cell window less the cell */
      cnt[x] = SQZ_LIFE_KEY(r4[x + 1], (uint8_t)(col[x] + col[x + 1] + col[x + 2] - r4[x + 1]));
    life_rule(cnt, out + x0, m, keys, n_keys, NULL);
  }
}

SQZ_CPU_CLONES void sqz__cpu_copy_reversed(uint8_t *restrict dst, const uint8_t *restrict src, uint64_t len) {
  uint64_t i = 0;
  for (; i + 8 <= len; i += 8) { /* eight bytes at a time, byte-swapped (any target) */
    uint64_t v;
    memcpy(&v, src - i - 7, 8);
    v = __builtin_bswap64(v);
    memcpy(dst + i, &v, 8);
  }
  for (; i < len; i++) dst[i] = src[-(int64_t)i];
}
