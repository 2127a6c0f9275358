/* sqz_swar.h — 1-byte Life cells packed in a word (SWAR: 4 per 32-bit word on GPUs; 1-byte words on CPU devices, vectorised by their compiler): the horizontal 3-sum and the B/S rule per byte, for the fast kernels. */
#ifndef SQZ_SWAR_H
#define SQZ_SWAR_H
/* OpenCL only. Cells are 0 or 1 and byte e of a word is the cell at address + e (the host runs
 * these kernels on little-endian devices only). The host picks the word per device type
 * (sqz__cl_swar_word: 32 bits on GPUs, NVIDIA's best; 8 bits on CPU devices, whose compiler
 * turns the branch-free loops over 1-byte words into vector code, where 64-bit scalar words
 * measured 2x slower; SQZ_SWAR_WORD=8|32|64 overrides). With 8-bit words the shifts of
 * sqz_swar_hsum leave l + m + r and sqz_swar_rule is one lookup. */
#ifndef SQZ_SWAR_WORD
#define SQZ_SWAR_WORD 32
#endif
#if SQZ_SWAR_WORD == 64
typedef ulong sqz_word;
#elif SQZ_SWAR_WORD == 8
typedef uchar sqz_word;
#else
typedef uint sqz_word;
#endif
#define SQZ_WBITS ((uint)SQZ_SWAR_WORD)
#define SQZ_WBYTES (SQZ_WBITS / 8u)

#if SQZ_SWAR_WORD != 32
/* A word at any byte address (CPU devices: unaligned loads cost nothing there). */
#if SQZ_SWAR_WORD == 64
static inline sqz_word sqz_swar_load(__global const uchar *p) { return as_ulong(vload8(0u, p)); }
static inline void sqz_swar_store(__global uchar *p, sqz_word w) { vstore8(as_uchar8(w), 0u, p); }
#else
static inline sqz_word sqz_swar_load(__global const uchar *p) { return *p; }
static inline void sqz_swar_store(__global uchar *p, sqz_word w) { *p = w; }
#endif
#endif

/* Left + self + right of the bytes of m, given the words l and r beside it (only the last byte
 * of l and byte 0 of r count): each byte <= 3, no carries. */
static inline sqz_word sqz_swar_hsum(sqz_word l, sqz_word m, sqz_word r) {
  return ((m << 8) | (l >> (SQZ_WBITS - 8u))) + m + ((m >> 8) | (r << (SQZ_WBITS - 8u)));
}

/* The next states of a word's cells from v = neighbours + 9 self per byte (0 .. 17, the sum of
 * three rows' 3-sums plus 8 self), rule = birth | survive << 9. */
static inline sqz_word sqz_swar_rule(sqz_word v, uint rule) {
  sqz_word next = 0u;
#pragma unroll
  for (uint e = 0u; e < SQZ_WBITS; e += 8u) next |= (sqz_word)((rule >> (uint)((v >> e) & 31u)) & 1u) << e;
  return next;
}

#if SQZ_SWAR_WORD == 32
/* A rule whose birth and survive counts are each one range (or none; B3/S23, B36/S23 not) as the
 * two ranges of v = neighbours + 9 self it holds, lo | hi << 5 | lo' << 10 | hi' << 15, with bit 31
 * set; 0 for any other rule. Computed once per work-item (OpenCL 1.2 has clz, not ctz). */
static inline uint sqz_swar_ranges(uint rule) {
  uint b = rule & 0x1ffu, s = (rule >> 9) & 0x1ffu;
  if (((b + (b & (0u - b))) & b) || ((s + (s & (0u - s))) & s)) return 0u; /* a set with a gap */
  uint r = 1u << 31;
  r |= b ? (31u - clz(b & (0u - b))) | (31u - clz(b)) << 5 : 1u; /* none: the empty range lo = 1, hi = 0 */
  r |= s ? (40u - clz(s & (0u - s))) << 10 | (40u - clz(s)) << 15 : 1u << 10;
  return r;
}

/* sqz_swar_rule by two range tests per byte when ranges (sqz_swar_ranges) is not 0: v + 128 - lo
 * has bit 7 set iff v >= lo, v + 127 - hi iff v > hi (bytes <= 17 + 128: no carries). */
static inline uint sqz_swar_rule_r(uint v, uint rule, uint ranges) {
  if (!ranges) return sqz_swar_rule(v, rule);
  uint l0 = ranges & 31u, h0 = (ranges >> 5) & 31u, l1 = (ranges >> 10) & 31u, h1 = (ranges >> 15) & 31u;
  uint t = ((v + (128u - l0) * 0x01010101u) & ~(v + (127u - h0) * 0x01010101u)) |
           ((v + (128u - l1) * 0x01010101u) & ~(v + (127u - h1) * 0x01010101u));
  return (t >> 7) & 0x01010101u;
}
#endif
#endif
