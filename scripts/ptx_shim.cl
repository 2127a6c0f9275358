/* ptx_shim.cl — the OpenCL C built-ins that NVIDIA's compiler provides and clang's nvptx target lacks, included ahead of sqz's kernels so that scripts/ptx_count.sh can compile them to PTX on a machine without a GPU. */
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef unsigned long size_t;
typedef unsigned int uint2 __attribute__((ext_vector_type(2)));
typedef unsigned int uint4 __attribute__((ext_vector_type(4)));
#ifndef NULL
#define NULL ((void *)0)
#endif
#define __ptx_dim(d, x, y, z) ((d) == 0 ? (size_t)(x) : (d) == 1 ? (size_t)(y) : (size_t)(z))
#define get_local_id(d) __ptx_dim(d, __nvvm_read_ptx_sreg_tid_x(), __nvvm_read_ptx_sreg_tid_y(), __nvvm_read_ptx_sreg_tid_z())
#define get_local_size(d) __ptx_dim(d, __nvvm_read_ptx_sreg_ntid_x(), __nvvm_read_ptx_sreg_ntid_y(), __nvvm_read_ptx_sreg_ntid_z())
#define get_group_id(d) __ptx_dim(d, __nvvm_read_ptx_sreg_ctaid_x(), __nvvm_read_ptx_sreg_ctaid_y(), __nvvm_read_ptx_sreg_ctaid_z())
#define get_num_groups(d) __ptx_dim(d, __nvvm_read_ptx_sreg_nctaid_x(), __nvvm_read_ptx_sreg_nctaid_y(), __nvvm_read_ptx_sreg_nctaid_z())
#define get_global_id(d) (get_group_id(d) * get_local_size(d) + get_local_id(d))
#define get_global_size(d) (get_num_groups(d) * get_local_size(d))
#define barrier(f) __syncthreads()
#define clz(v) ((uint)__builtin_clz(v))
#define mul_hi(a, b) ((uint)__nvvm_mulhi_ui((a), (b)))
static inline uint min(uint a, uint b) { return a < b ? a : b; }
static inline uint max(uint a, uint b) { return a > b ? a : b; }
static inline int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
/* Counting only: a plain read-modify-write (clang's nvptx OpenCL has no atomics on __local); a real
 * atomic_or is one ATOMS where this is a load, an OR and a store. */
#define atomic_or(p, v) (*(p) |= (v))
