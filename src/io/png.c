/* png.c — writing a field as a PNG picture row by row, scaled down or up: u8 fields a colour per state, other types through viridis (range in a tEXt chunk); outside cells apart. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/atomic_file.h"
#include "io/image_rows.h"

#ifdef SQZ_HAVE_PNG
#include <png.h>

static const unsigned char sqz_live[3] = {20, 20, 30}, sqz_dead[3] = {250, 250, 245}, sqz_hole[3] = {170, 195, 225};

/* States 2 and up of u8 fields (ages, multi-state rules): eight distinct colours, cycled. */
static const unsigned char sqz_states[8][3] = {{230, 60, 50},  {245, 160, 30}, {60, 170, 70},  {40, 110, 210},
                                               {150, 70, 190}, {20, 180, 190}, {220, 60, 160}, {130, 130, 40}};

/* The viridis colour map, 256 entries from dark blue to yellow: matplotlib's _viridis_data (lib/matplotlib/
 * _cm_listed.py) by Stéfan van der Walt and Nathaniel J. Smith, CC0 (public domain), each channel * 255 rounded. */
static const unsigned char sqz_viridis[256][3] = {
    {68, 1, 84}, {68, 2, 86}, {69, 4, 87}, {69, 5, 89}, {70, 7, 90}, {70, 8, 92},
    {70, 10, 93}, {70, 11, 94}, {71, 13, 96}, {71, 14, 97}, {71, 16, 99}, {71, 17, 100},
    {71, 19, 101}, {72, 20, 103}, {72, 22, 104}, {72, 23, 105}, {72, 24, 106}, {72, 26, 108},
    {72, 27, 109}, {72, 28, 110}, {72, 29, 111}, {72, 31, 112}, {72, 32, 113}, {72, 33, 115},
    {72, 35, 116}, {72, 36, 117}, {72, 37, 118}, {72, 38, 119}, {72, 40, 120}, {72, 41, 121},
    {71, 42, 122}, {71, 44, 122}, {71, 45, 123}, {71, 46, 124}, {71, 47, 125}, {70, 48, 126},
    {70, 50, 126}, {70, 51, 127}, {70, 52, 128}, {69, 53, 129}, {69, 55, 129}, {69, 56, 130},
    {68, 57, 131}, {68, 58, 131}, {68, 59, 132}, {67, 61, 132}, {67, 62, 133}, {66, 63, 133},
    {66, 64, 134}, {66, 65, 134}, {65, 66, 135}, {65, 68, 135}, {64, 69, 136}, {64, 70, 136},
    {63, 71, 136}, {63, 72, 137}, {62, 73, 137}, {62, 74, 137}, {62, 76, 138}, {61, 77, 138},
    {61, 78, 138}, {60, 79, 138}, {60, 80, 139}, {59, 81, 139}, {59, 82, 139}, {58, 83, 139},
    {58, 84, 140}, {57, 85, 140}, {57, 86, 140}, {56, 88, 140}, {56, 89, 140}, {55, 90, 140},
    {55, 91, 141}, {54, 92, 141}, {54, 93, 141}, {53, 94, 141}, {53, 95, 141}, {52, 96, 141},
    {52, 97, 141}, {51, 98, 141}, {51, 99, 141}, {50, 100, 142}, {50, 101, 142}, {49, 102, 142},
    {49, 103, 142}, {49, 104, 142}, {48, 105, 142}, {48, 106, 142}, {47, 107, 142}, {47, 108, 142},
    {46, 109, 142}, {46, 110, 142}, {46, 111, 142}, {45, 112, 142}, {45, 113, 142}, {44, 113, 142},
    {44, 114, 142}, {44, 115, 142}, {43, 116, 142}, {43, 117, 142}, {42, 118, 142}, {42, 119, 142},
    {42, 120, 142}, {41, 121, 142}, {41, 122, 142}, {41, 123, 142}, {40, 124, 142}, {40, 125, 142},
    {39, 126, 142}, {39, 127, 142}, {39, 128, 142}, {38, 129, 142}, {38, 130, 142}, {38, 130, 142},
    {37, 131, 142}, {37, 132, 142}, {37, 133, 142}, {36, 134, 142}, {36, 135, 142}, {35, 136, 142},
    {35, 137, 142}, {35, 138, 141}, {34, 139, 141}, {34, 140, 141}, {34, 141, 141}, {33, 142, 141},
    {33, 143, 141}, {33, 144, 141}, {33, 145, 140}, {32, 146, 140}, {32, 146, 140}, {32, 147, 140},
    {31, 148, 140}, {31, 149, 139}, {31, 150, 139}, {31, 151, 139}, {31, 152, 139}, {31, 153, 138},
    {31, 154, 138}, {30, 155, 138}, {30, 156, 137}, {30, 157, 137}, {31, 158, 137}, {31, 159, 136},
    {31, 160, 136}, {31, 161, 136}, {31, 161, 135}, {31, 162, 135}, {32, 163, 134}, {32, 164, 134},
    {33, 165, 133}, {33, 166, 133}, {34, 167, 133}, {34, 168, 132}, {35, 169, 131}, {36, 170, 131},
    {37, 171, 130}, {37, 172, 130}, {38, 173, 129}, {39, 173, 129}, {40, 174, 128}, {41, 175, 127},
    {42, 176, 127}, {44, 177, 126}, {45, 178, 125}, {46, 179, 124}, {47, 180, 124}, {49, 181, 123},
    {50, 182, 122}, {52, 182, 121}, {53, 183, 121}, {55, 184, 120}, {56, 185, 119}, {58, 186, 118},
    {59, 187, 117}, {61, 188, 116}, {63, 188, 115}, {64, 189, 114}, {66, 190, 113}, {68, 191, 112},
    {70, 192, 111}, {72, 193, 110}, {74, 193, 109}, {76, 194, 108}, {78, 195, 107}, {80, 196, 106},
    {82, 197, 105}, {84, 197, 104}, {86, 198, 103}, {88, 199, 101}, {90, 200, 100}, {92, 200, 99},
    {94, 201, 98}, {96, 202, 96}, {99, 203, 95}, {101, 203, 94}, {103, 204, 92}, {105, 205, 91},
    {108, 205, 90}, {110, 206, 88}, {112, 207, 87}, {115, 208, 86}, {117, 208, 84}, {119, 209, 83},
    {122, 209, 81}, {124, 210, 80}, {127, 211, 78}, {129, 211, 77}, {132, 212, 75}, {134, 213, 73},
    {137, 213, 72}, {139, 214, 70}, {142, 214, 69}, {144, 215, 67}, {147, 215, 65}, {149, 216, 64},
    {152, 216, 62}, {155, 217, 60}, {157, 217, 59}, {160, 218, 57}, {162, 218, 55}, {165, 219, 54},
    {168, 219, 52}, {170, 220, 50}, {173, 220, 48}, {176, 221, 47}, {178, 221, 45}, {181, 222, 43},
    {184, 222, 41}, {186, 222, 40}, {189, 223, 38}, {192, 223, 37}, {194, 223, 35}, {197, 224, 33},
    {200, 224, 32}, {202, 225, 31}, {205, 225, 29}, {208, 225, 28}, {210, 226, 27}, {213, 226, 26},
    {216, 226, 25}, {218, 227, 25}, {221, 227, 24}, {223, 227, 24}, {226, 228, 24}, {229, 228, 25},
    {231, 228, 25}, {234, 229, 26}, {236, 229, 27}, {239, 229, 28}, {241, 229, 29}, {244, 230, 30},
    {246, 230, 32}, {248, 230, 33}, {251, 231, 35}, {253, 231, 37},
};

/* The colour of u8 state v: 0 dead, 1 live (as two-state pictures), then sqz_states. */
static const unsigned char *sqz__state_colour(unsigned v) {
  return v == 0 ? sqz_dead : v == 1 ? sqz_live : sqz_states[(v - 2) % 8];
}

/* The value of the current row's cell j as a double (non-u8 fields). */
static double sqz__png_value(const sqz_image *im, uint64_t j) {
  const unsigned char *p = im->row_vals + j * im->ts;
  if (im->f->type == SQZ_I32) { int32_t x; memcpy(&x, p, 4); return x; }
  if (im->f->type == SQZ_F32) { float x; memcpy(&x, p, 4); return x; }
  double x;
  memcpy(&x, p, 8);
  return x;
}

/* The range of the finite values of the domain cells (non-u8 fields), one pass over the rows. */
static int sqz__png_range(sqz_image *im, double *lo, double *hi) {
  int first = 1, st = SQZ_OK;
  *lo = *hi = 0;
  for (uint64_t y = 0; y < im->height; y++) {
    if ((st = sqz__image_row(im, y)) != SQZ_OK) return st;
    for (uint64_t j = 0; j < im->count; j++) {
      double v = sqz__png_value(im, j);
      if (!isfinite(v)) continue;
      if (first || v < *lo) *lo = v;
      if (first || v > *hi) *hi = v;
      first = 0;
    }
  }
  return st;
}

/* The picture being written: block x block cells a pixel (down), or scale x scale pixels a cell (up). */
typedef struct {
  sqz_image *im;
  uint64_t block, scale, w_cells; /* w_cells: pixels a row before scaling up */
  double lo, hi;                  /* non-u8: the range mapped onto viridis */
  unsigned char *row, *wide;      /* a row of w_cells pixels; scaled up (scale > 1) */
  double *sum;                    /* per pixel: the colour sums (u8) or the value sum */
  uint64_t *cnt;                  /* per pixel: the domain cells */
} sqz_png_pic;

/* Pixel x of the row from its sums: the hole colour where no cell is a domain cell, else the mean
 * colour of the cells' states (u8) or viridis at the mean value. */
static void sqz__png_pixel(const sqz_png_pic *p, uint64_t x, unsigned char *c) {
  uint64_t n = p->cnt[x];
  if (!n) {
    memcpy(c, sqz_hole, 3);
  } else if (p->im->f->type == SQZ_U8) {
    for (int k = 0; k < 3; k++) c[k] = (unsigned char)(p->sum[3 * x + k] / (double)n + 0.5);
  } else {
    double t = p->hi <= p->lo ? 0.0 : (p->sum[x] / (double)n - p->lo) / (p->hi - p->lo);
    int i = (int)(t * 255.0 + 0.5);
    memcpy(c, sqz_viridis[i < 0 ? 0 : i > 255 ? 255 : i], 3);
  }
}

/* Picture row from image rows y0 .. y0 + block - 1 into p->row (w_cells pixels). */
static int sqz__png_row(sqz_png_pic *p, uint64_t y0) {
  sqz_image *im = p->im;
  memset(p->sum, 0, 3 * p->w_cells * sizeof *p->sum);
  memset(p->cnt, 0, p->w_cells * sizeof *p->cnt);
  for (uint64_t y = y0; y < y0 + p->block && y < im->height; y++) {
    int st = sqz__image_row(im, y);
    if (st != SQZ_OK) return st;
    for (uint64_t j = 0; j < im->count; j++) {
      uint64_t x = im->row_xs[j] / p->block;
      p->cnt[x]++;
      if (im->f->type == SQZ_U8) {
        const unsigned char *c = sqz__state_colour(im->row_vals[j]);
        for (int k = 0; k < 3; k++) p->sum[3 * x + k] += c[k];
      } else {
        double v = sqz__png_value(im, j);
        if (isfinite(v)) p->sum[x] += v;
      }
    }
  }
  for (uint64_t x = 0; x < p->w_cells; x++) sqz__png_pixel(p, x, p->row + x * 3);
  for (uint64_t x = 0; p->scale > 1 && x < p->w_cells * p->scale; x++)
    memcpy(p->wide + x * 3, p->row + x / p->scale * 3, 3);
  return SQZ_OK;
}

/* The range of a non-u8 picture as the tEXt chunk "sqz:range" = "MIN MAX". */
static void sqz__png_text(png_structp png, png_infop info, const sqz_png_pic *p) {
  static char key[] = "sqz:range";
  char value[64];
  snprintf(value, sizeof value, "%.17g %.17g", p->lo, p->hi);
  png_text t;
  memset(&t, 0, sizeof t);
  t.compression = PNG_TEXT_COMPRESSION_NONE;
  t.key = key;
  t.text = value;
  png_set_text(png, info, &t, 1);
}

/* Writes the picture row by row into the open temporary af (libpng's errors longjmp here). */
static int sqz__png_write(sqz_png_pic *p, sqz_atomic_file *af) {
  sqz_image *im = p->im;
  uint64_t h_cells = (im->height + p->block - 1) / p->block;
  volatile int st = SQZ_OK; /* set after the setjmp below */
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!png || !info) {
    st = sqz__fail(im->f->ctx, SQZ_ERR_OUT_OF_MEMORY, "%s: cannot start the PNG", im->path);
    goto done;
  }
  if (setjmp(png_jmpbuf(png))) {
    st = sqz__fail(im->f->ctx, SQZ_ERR_IO, "%s: libpng failed while writing", im->path);
    goto done;
  }
  png_init_io(png, af->fp);
  png_set_IHDR(png, info, (png_uint_32)(p->w_cells * p->scale), (png_uint_32)(h_cells * p->scale), 8,
               PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (im->f->type != SQZ_U8) sqz__png_text(png, info, p);
  png_write_info(png, info);
  for (uint64_t y = 0; y < h_cells; y++) {
    int rst = sqz__png_row(p, y * p->block);
    if (rst != SQZ_OK) {
      st = rst;
      goto done;
    }
    for (uint64_t k = 0; k < p->scale; k++) png_write_row(png, p->scale > 1 ? p->wide : p->row);
  }
  png_write_end(png, NULL);
done:
  if (png) png_destroy_write_struct(&png, info ? &info : NULL);
  return st;
}

/* The picture's geometry for size (0: a pixel a cell): cells per pixel down, pixels per cell up. */
static int sqz__png_plan(sqz_field *f, const char *path, uint64_t size, sqz_png_pic *p) {
  uint64_t w = f->dom->side, h = f->dom->dims == 3 ? w * w : w, big = w > h ? w : h;
  p->block = size && size < big ? (big + size - 1) / size : 1;
  p->scale = size > big ? size / big : 1;
  p->w_cells = (w + p->block - 1) / p->block;
  uint64_t h_cells = (h + p->block - 1) / p->block;
  if (p->w_cells * p->scale > 0x7fffffff || h_cells * p->scale > 0x7fffffff)
    return sqz__fail(f->ctx, SQZ_ERR_TOO_LARGE, "%s: %llu x %llu is too large for PNG (--png-size downscales)", path,
                     (unsigned long long)(p->w_cells * p->scale), (unsigned long long)(h_cells * p->scale));
  return SQZ_OK;
}

/* Host buffers of the picture, one allocation: the row, the scaled row, the sums and the counts. */
static int sqz__png_buffers(sqz_field *f, const char *path, sqz_png_pic *p, void **mem) {
  uint64_t row = (p->w_cells * 3 + 7) / 8 * 8, wide = p->scale > 1 ? (p->w_cells * p->scale * 3 + 7) / 8 * 8 : 0;
  int st = sqz__host_alloc(f->ctx, row + wide + p->w_cells * (3 * sizeof *p->sum + sizeof *p->cnt), 0, mem,
                           "%s: one row of the picture", path);
  if (st != SQZ_OK) return st;
  p->row = *mem;
  p->wide = p->row + row;
  p->sum = (double *)(void *)(p->wide + wide); /* 8-byte aligned after the pixels */
  p->cnt = (uint64_t *)(void *)(p->sum + 3 * p->w_cells);
  return SQZ_OK;
}

int sqz_field_save_png_range(sqz_field *f, const char *path, uint64_t size, double *min, double *max) {
  if (min) *min = 0;
  if (max) *max = 0;
  if (!f || !path) return sqz__null_arg(f ? f->ctx : NULL, "sqz_field_save_png");
  sqz_png_pic p;
  memset(&p, 0, sizeof p);
  int st = sqz__png_plan(f, path, size, &p);
  if (st != SQZ_OK) return st;
  sqz_image im;
  if ((st = sqz__image_open(f, path, SQZ_IMAGE_SAVE, &im)) != SQZ_OK) return st;
  p.im = &im;
  void *mem = NULL;
  sqz_atomic_file af = {0};
  st = sqz__png_buffers(f, path, &p, &mem);
  if (st == SQZ_OK && f->type != SQZ_U8) st = sqz__png_range(&im, &p.lo, &p.hi);
  if (st == SQZ_OK) st = sqz__atomic_open(f->ctx, path, &af);
  if (st == SQZ_OK) st = sqz__png_write(&p, &af);
  if (st == SQZ_OK) st = sqz__atomic_commit(f->ctx, &af);
  else sqz__atomic_abort(&af);
  if (st == SQZ_OK && min) *min = p.lo;
  if (st == SQZ_OK && max) *max = p.hi;
  free(mem);
  sqz__image_close(&im);
  return st;
}

int sqz_field_save_png_sized(sqz_field *f, const char *path, uint64_t size) {
  return sqz_field_save_png_range(f, path, size, NULL, NULL);
}
int sqz_field_save_png(sqz_field *f, const char *path) { return sqz_field_save_png_range(f, path, 0, NULL, NULL); }
#else
int sqz_field_save_png_range(sqz_field *f, const char *path, uint64_t size, double *min, double *max) {
  (void)path, (void)size;
  if (min) *min = 0;
  if (max) *max = 0;
  return sqz__fail(f ? f->ctx : NULL, SQZ_ERR_UNSUPPORTED, "this build of sqz has no libpng: PNG output is unavailable");
}
int sqz_field_save_png_sized(sqz_field *f, const char *path, uint64_t size) {
  return sqz_field_save_png_range(f, path, size, NULL, NULL);
}
int sqz_field_save_png(sqz_field *f, const char *path) { return sqz_field_save_png_range(f, path, 0, NULL, NULL); }
#endif
