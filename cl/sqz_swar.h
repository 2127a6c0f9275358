/* sqz_swar.h — four 1-byte Life cells in a 32-bit word (SWAR): the horizontal 3-sum and the B/S rule per byte, for the fast kernels. */
#ifndef SQZ_SWAR_H
#define SQZ_SWAR_H
/* OpenCL only. Cells are 0 or 1 and byte e of a word is the cell at address + e (the host runs
 * these kernels on little-endian devices only). */

/* Left + self + right of the four bytes of m, given the words l and r beside it (only byte 3
 * of l and byte 0 of r count): each byte <= 3, no carries. */
static inline uint sqz_swar_hsum(uint l, uint m, uint r) { return ((m << 8) | (l >> 24)) + m + ((m >> 8) | (r << 24)); }

/* The next states of four cells from v = neighbours + 9 self per byte (0 .. 17, the sum of three
 * rows' 3-sums plus 8 self), rule = birth | survive << 9. */
static inline uint sqz_swar_rule(uint v, uint rule) {
  uint next = 0u;
#pragma unroll
  for (uint e = 0u; e < 32u; e += 8u) next |= ((rule >> ((v >> e) & 31u)) & 1u) << e;
  return next;
}
#endif
