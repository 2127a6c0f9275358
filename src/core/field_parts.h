/* field_parts.h — a field stored in parts: P buffers, each a contiguous range of the layout's storage units plus copies of the units its cells read from other parts (its halo), and the exchange that refreshes the copies. */
#ifndef SQZ_FIELD_PARTS_H
#define SQZ_FIELD_PARTS_H
#include "core/part_view.h"
#include "core/parts.h"
#include "core/update.h"

/* The shape every parts path (one device, several devices, MPI ranks) shares.
 *
 * Storage units. A parted field cuts the storage of its layout (sqz_field.elems elements) into
 * `units` units of `unit` consecutive storage elements, the smallest thing a kernel addresses
 * through a neighbour index:
 *   fractal block:RHO  one tile (RHO^2 elements, tiles in the digit order of their λ_b);
 *   fractal compact    one tile of the compact engine (k^jt elements, jt fixed at creation:
 *                      the engine's default level, lowered until there is a tile per part;
 *                      the field's launch block is set to it, so kernel tiles never cross a unit);
 *   fractal bits       one bits tile (wt 32-bit words: k^t cells at bits 0 .. k^t - 1, tiles in
 *                      digit order; storage elements are bits, so a unit is 32 wt elements and
 *                      sqz__elems_bytes gives its bytes);
 *   simplex compact    one cell (the kernels address cells by storage index);
 *   bb, lambda         one storage element, parts cut at whole bounding-box rows (tetrahedra:
 *                      planes) with the row above and below as halo (parts_bands.c);
 *   simplex bits       one 32-bit word (32 elements), parts cut at whole rows of words
 *                      (tetrahedra: planes), halo rows likewise (parts_bands.c).
 * Part p owns units [u0, u1): p's cells are the cells of the cell plan (sqz__parts_plan) rounded
 * to units (fractals: replicas at level j hold whole tiles when R - j >= jt; the plan is asked for
 * a level that satisfies it). Its halo is the sorted set of units of other parts that any own
 * unit's cells read (Moore neighbourhood): unique(g / unit_cells) over the cell halo
 * (sqz__parts_halo), so whole tiles travel (each tile holds unit_cells cells).
 *
 * Part buffers. mem[b] of part p holds its own units (local slots 0 .. u1-u0-1) then its halo
 * units (slots u1-u0 .. u1-u0+n_halo-1, in the order of `halo`). A kernel of a parted field maps a
 * global unit g to its local slot once per unit (fractal tiles: once per neighbour tile):
 *     g in [u0, u1) ? g - u0 : (u1 - u0) + position of g in halo (binary search, device copy)
 * through one function in a cl/ header shared with the host (cl/sqz_parts.h, sqz_part_slot), and
 * launches only over its own units, or a set of them (sqz_field.units of a view: tile kernels over
 * the set's positions; simplices: every block of the map, those without a cell of the set
 * skipping their tile, each writing only its own cells of the set). Halo slots are read, never
 * written, by steps.
 *
 * Exchange. Before every step (or every fp->depth steps) the halo slots of every part this
 * process holds are refreshed from their owners' current buffers, in two halves around the step
 * of the inner units (sqz_exchange_ops: start, complete). A maximal run of consecutive halo units
 * with one owner moves as one copy (sqz_halo_run). The exchange is a hook so the settings share
 * everything else:
 *   same context           ops->copy (device to device: clEnqueueCopyBuffer, memcpy)
 *   different contexts     through a host staging buffer (download, then upload)
 *   MPI (src/mpi/)         part p on rank p * ranks / parts; runs leave by MPI_Isend and arrive
 *                          by MPI_Irecv, those between parts of one rank by ops->copy
 * A part whose ctx is NULL is held by another rank: it has u0, u1 and the plan, no buffers.
 *
 * Everything the front end does to a field (read/write, compact I/O, fills, count/sum,
 * gather/scatter, checkpoints, images) works on a parted field: a storage index s of the whole
 * field is in part p when s / unit is in [u0, u1), at local element s - u0 * unit; reductions
 * combine the parts' own ranges (halos excluded). The front end reaches storage only through the
 * sqz__store_* functions below, which take a buffer number (f->cur or f->cur ^ 1) and serve a
 * field in one buffer and a parted one alike. */

/* How halos move between parts (one device, several devices, MPI ranks). A step (sqz__field_parts_step)
 * calls start, steps the inner units of every part held here, calls complete, then steps the
 * border units: what start sets moving overlaps the inner step. */
typedef struct {
  const char *name; /* "device", "host", "mpi" */
  /* Sets the refresh of the halo slots of buffer `cur` going (every owner's mem[cur] is current
   * once its queue has run): must not write any halo slot that a kernel enqueued before it reads
   * in a way that matters (inner units read none). */
  int (*start)(sqz_field *f, int cur);
  /* Completes it: the halo slots of every part held here are current, or ordered before the
   * next kernels on each part's queue, when it returns. Adds the seconds it waited for the halo
   * to arrive (messages, transfers) to *wait_s. */
  int (*complete)(sqz_field *f, int cur, double *wait_s);
  void (*release)(sqz_field_split *fp); /* frees `state` (may be NULL) */
} sqz_exchange_ops;

/* Host seconds of a parted field's steps since creation (sqz_field_parts_times). */
typedef struct {
  double exchange_s, wait_s, inner_s, border_s;
  uint64_t steps, exchanges;
} sqz_parts_clock;

struct sqz_field_split {
  sqz_parts_plan *plan;      /* the cell plan the units were rounded from */
  uint64_t parts;
  uint64_t unit;             /* storage elements per unit */
  uint64_t unit_cells;       /* domain cells per unit (compact order: unit g holds cells g * unit_cells ..) */
  uint64_t units;            /* elems / unit */
  uint32_t jt;               /* fractals: the tile level of a unit (block: log_s RHO) */
  /* Steps per exchange: 1, or on tiled fractals (block, compact, bits) T (2 .. 4, at most the tile side s^jt) at
   * creation: SQZ_EXCHANGE_STEPS, else 4 on a GPU in one process (sqz__parts_default_depth). With T > 1 a part's halo is every tile that touches an own tile (a
   * tile's T-wide surroundings lie in its 8 neighbour tiles when T <= its side): the width-1 cell
   * halo of the fractal one tile per cell (R - jt levels, the same replica split), so engines that
   * step a part's tiles T steps in one launch (the temporal word kernel) are exact; the others step
   * one at a time, exchanging between steps, as with T = 1. */
  uint32_t depth;
  sqz_field_part *part;      /* parts entries */
  const sqz_exchange_ops *xchg;
  void *state;               /* the exchange's own (MPI: the communicator, requests, send lists) */
  sqz_parts_clock clock;     /* where the steps' time went */
  int serial;                /* exchange, then every own unit at once: the default of one context
                              * ("device"); SQZ_OVERLAP=0 (serial) or 1 (split) at creation overrides */
  size_t n_ctx;              /* the distinct contexts of the parts held here, f->ctx first */
  sqz_context **ctxs;
};

/* The backend table's entries for parts (core/backend.h; every backend fills them):
 *   copy(ctx, dst, dst_off, src, src_off, bytes)   device to device inside one context;
 *                           (0 bytes: SQZ_OK where the backend holds fields in parts, else
 *                           SQZ_ERR_UNSUPPORTED with the reason: the cuda backend);
 *   stencil_part(view, u)   one step of the part that `view` views (sqz__part_view) from its
 *                           mem[cur] into mem[cur ^ 1], over view->units (NULL: every own unit;
 *                           sqz__step_units), halo slots as read-only neighbours.
 * Public API (include/sqz.h): sqz_field_create_parts, sqz_field_create_devices, sqz_field_parts;
 * sqz_field_create takes the automatic count (sqz__parts_auto) when one buffer would exceed the
 * device's single-allocation limit (SQZ_MAX_ALLOC=bytes lowers that limit, for tests). */

/* ---- creation (field_parts.c) ------------------------------------------------------------- */
/* The unit of f's layout: elements per unit, cells per unit and the fractal tile level;
 * SQZ_ERR_UNSUPPORTED naming the layout and the layouts that part. */
SQZ_INTERNAL int sqz__parts_unit(const sqz_field *f, uint64_t *unit, uint64_t *unit_cells, uint32_t *jt);
/* Bands (parts_bands.c): 1 when f's layout parts by bands of rows (bb, lambda: bounding-box rows;
 * simplex bits: rows of words; tetrahedra: planes); the rows (the most parts); the part ranges,
 * halo rows and runs of fp->parts parts (fp->part allocated, fp->unit set; lists 0: no halo arrays,
 * for sizes). */
SQZ_INTERNAL int sqz__bands_layout(const sqz_field *f);
SQZ_INTERNAL uint64_t sqz__bands_rows(const sqz_field *f);
SQZ_INTERNAL int sqz__bands_split(sqz_field *f, sqz_field_split *fp, int lists);
/* The single-allocation limit that field storage keeps to: the device's, or SQZ_MAX_ALLOC=bytes
 * when that is lower (a test hook: small fields split as large ones do on a real device). */
SQZ_INTERNAL uint64_t sqz__parts_alloc_limit(const sqz_context *ctx);
/* The largest part count of f: min(units, SQZ_PARTS_MAX). */
SQZ_INTERNAL uint64_t sqz__parts_max(const sqz_field *f);
/* The largest part buffer of f in `parts` parts at `depth` steps per exchange (own units and halo)
 * and the halo bytes per exchange, without storage (f: its shape only). */
SQZ_INTERNAL int sqz__parts_sizes(sqz_field *f, uint64_t parts, uint32_t depth, uint64_t *largest, uint64_t *halo);
/* The fewest parts that keep every part buffer of f (own units and halo) within max_alloc bytes
 * of its device, and the halo bytes per step of that count (halo_bytes may be NULL);
 * SQZ_ERR_TOO_LARGE with the detail when no count does. */
SQZ_INTERNAL int sqz__parts_auto(sqz_field *f, uint64_t max_alloc, uint64_t *parts, uint64_t *halo_bytes);
/* The fewest parts of a field of (dom, type, layout) whose buffers each fit ctx's allocation limit
 * (1 when one buffer does or the layout does not part), wherever the parts live (MPI ranks). */
SQZ_COMPONENT int sqz__parts_fit(sqz_domain *dom, sqz_context *ctx, sqz_type type, const char *layout, uint64_t *parts);
/* Builds f->parts: the unit ranges, halos and runs of `parts` parts (f's geometry set, f->mem
 * empty), part p on ctxs[p * n_ctx / parts] (n_ctx 0: every part on f->ctx; a NULL entry: held
 * by another rank), buffers allocated for the parts with a context, with exchange xchg (NULL:
 * "device" when every part shares one context, else "host"). SQZ_ERR_INVALID_ARGUMENT with the
 * largest valid count when parts is 0 or too many. */
SQZ_INTERNAL int sqz__field_parts_build(sqz_field *f, uint64_t parts, sqz_context *const *ctxs, size_t n_ctx,
                                        const sqz_exchange_ops *xchg);
SQZ_INTERNAL void sqz__field_parts_free(sqz_field *f);
/* A new field of dom in `parts` parts, part p on ctxs[p] or, where that is NULL, held by another
 * process (MPI ranks), halos refreshed by xchg (its state set by the caller after creation). */
SQZ_COMPONENT int sqz__field_create_held(sqz_domain *dom, sqz_context *const *ctxs, uint64_t parts, sqz_type type,
                                        const char *layout, const sqz_exchange_ops *xchg, sqz_field **out);
/* f as its part p (sqz_field.part): the part's context and buffers, the rest f's. */
SQZ_INTERNAL void sqz__part_view(sqz_field *f, uint64_t p, sqz_field *view);
/* The part that owns global unit g (binary search over u0). */
SQZ_INTERNAL uint64_t sqz__parts_owner_of(const sqz_field_split *fp, uint64_t g);
/* Part p's inner and border sets from its sorted border units (border[0 .. n - 1], own units),
 * device copies included (replacing the sets it had). Exposed for tests, which mutate a split
 * to see a wrong one fail. */
SQZ_INTERNAL int sqz__part_split(sqz_field *f, uint64_t p, const uint64_t *border, uint64_t n);
/* Bytes one step's exchange moves into the parts (every halo unit once, sqz__elems_bytes). */
SQZ_INTERNAL uint64_t sqz__parts_halo_bytes(const sqz_field *f);

/* The built-in exchanges: "device" (ops->copy inside one context), "host" (download + upload
 * through a staging buffer, any contexts). */
SQZ_INTERNAL extern const sqz_exchange_ops sqz__exchange_device;
SQZ_INTERNAL extern const sqz_exchange_ops sqz__exchange_host;

/* ---- the step (field_parts.c) ------------------------------------------------------------- */
/* The second (ping-pong) buffer of every part held here (sqz__field_ensure_pair of a parted f). */
SQZ_INTERNAL int sqz__field_parts_pairs(sqz_field *f);
/* `steps` steps of u on parted f, in chunks of fp->depth steps where every held part's engine steps
 * them in one launch (else of 1): per chunk xchg->start(f, f->cur), the inner units of every part
 * held here (a view with units = &inner), xchg->complete, the border units (units = &border),
 * f->cur ^= 1; each through ops->stencil_part (on several contexts ops->stencil of the view, one
 * step, enqueued without waiting, so the devices run side by side). fp->serial: complete right
 * after start and every own unit in one launch (the order before the overlap, for measurements). */
SQZ_INTERNAL int sqz__field_parts_step(sqz_field *f, const sqz_update *u, uint64_t steps);

/* ---- storage access of any field (field_store.c) ------------------------------------------- */
/* Elements [e0, e0 + n) of buffer `which` between the device(s) and a host array. */
SQZ_COMPONENT int sqz__store_read(sqz_field *f, int which, uint64_t e0, uint64_t n, void *host);
SQZ_COMPONENT int sqz__store_write(sqz_field *f, int which, uint64_t e0, uint64_t n, const void *host);
/* Zeroes buffer `which` (halos included). */
SQZ_INTERNAL int sqz__store_zero(sqz_field *f, int which);

/* n cells of a parted f's buffer `which` through whole-field storage indices (-1: none), part by
 * part (sqz__field_gather and sqz__field_scatter of a parted field). */
SQZ_INTERNAL int sqz__store_gather(sqz_field *f, int which, const int64_t *idx, uint64_t n, void *out);
SQZ_INTERNAL int sqz__store_scatter(sqz_field *f, int which, const int64_t *idx, uint64_t n, const void *in);
/* Waits for every context of f. */
SQZ_COMPONENT int sqz__store_finish(sqz_field *f);
#endif
