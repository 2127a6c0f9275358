/* npy_header.c — the .npy 1.0 header: a bounded parser of its Python dict literal, a writer, dtype names. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "io/npy.h"

static const unsigned char sqz_npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* The dtypes read, the first of each type being the one written, with sqz's name of the type. */
static const struct {
  const char *descr;
  sqz_type type;
  const char *cell;
} sqz_npy_dtypes[] = {
    {"|u1", SQZ_U8, "u8"},    {"<u1", SQZ_U8, "u8"},    {"<i4", SQZ_I32, "i32"},
    {"<f4", SQZ_F32, "f32"}, {"<f8", SQZ_F64, "f64"},
};
#define SQZ_NPY_NDTYPES (sizeof sqz_npy_dtypes / sizeof sqz_npy_dtypes[0])

static const char *const sqz_npy_keys[3] = {"descr", "fortran_order", "shape"};

/* A cursor over the dict text buf[i, end); offsets are file offsets, so messages can name them. */
typedef struct {
  const unsigned char *p;
  size_t i, end;
  char *err;
  size_t errlen;
} sqz_npy_cursor;

static int sqz__npy_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int sqz__npy_err(char *err, size_t errlen, const char *fmt, ...) {
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return SQZ_ERR_PARSE;
}

/* Next character, or -1 at the end of the header. */
static int sqz__npy_peek(const sqz_npy_cursor *c) { return c->i < c->end ? c->p[c->i] : -1; }

/* What the cursor is looking at, for messages: 'x', byte 0x93, or the end of the header. */
static const char *sqz__npy_seen(const sqz_npy_cursor *c, char *buf, size_t cap) {
  int ch = sqz__npy_peek(c);
  if (ch < 0) snprintf(buf, cap, "the end of the header");
  else if (ch >= 0x20 && ch < 0x7f) snprintf(buf, cap, "'%c'", ch);
  else snprintf(buf, cap, "byte 0x%02x", (unsigned)ch);
  return buf;
}

/* Records "header is not a valid dict: <what>, found <seen> at byte <i>" and returns the status. */
static int sqz__npy_bad(sqz_npy_cursor *c, const char *what) {
  char seen[32];
  return sqz__npy_err(c->err, c->errlen, "header is not a valid dict: %s, found %s at byte %zu", what,
                      sqz__npy_seen(c, seen, sizeof seen), c->i);
}

static void sqz__npy_ws(sqz_npy_cursor *c) {
  int ch;
  while ((ch = sqz__npy_peek(c)) == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f') c->i++;
}

/* A quoted string of printable ASCII without escapes, at most cap - 1 characters. */
static int sqz__npy_string(sqz_npy_cursor *c, char *dst, size_t cap, const char *what) {
  int q = sqz__npy_peek(c);
  if (q != '\'' && q != '"') return sqz__npy_bad(c, what);
  c->i++;
  size_t n = 0;
  int ch;
  while ((ch = sqz__npy_peek(c)) != q) {
    if (ch < 0) return sqz__npy_bad(c, "unterminated string");
    if (ch < 0x20 || ch > 0x7e || ch == '\\') return sqz__npy_bad(c, "unsupported character in a string");
    if (n + 1 >= cap) return sqz__npy_bad(c, "string too long");
    dst[n++] = (char)ch;
    c->i++;
  }
  c->i++;
  dst[n] = 0;
  return SQZ_OK;
}

/* The keyword w, not followed by more identifier characters. */
static int sqz__npy_word(sqz_npy_cursor *c, const char *w) {
  size_t n = strlen(w);
  if (c->end - c->i < n || memcmp(c->p + c->i, w, n) != 0) return 0;
  if (c->i + n < c->end) {
    unsigned char nx = c->p[c->i + n];
    if ((nx >= 'a' && nx <= 'z') || (nx >= 'A' && nx <= 'Z') || (nx >= '0' && nx <= '9') || nx == '_') return 0;
  }
  c->i += n;
  return 1;
}

static int sqz__npy_uint(sqz_npy_cursor *c, uint64_t *v) {
  int ch = sqz__npy_peek(c);
  if (ch < '0' || ch > '9') return sqz__npy_bad(c, "expected a non-negative integer in the shape");
  if (ch == '0' && c->i + 1 < c->end && c->p[c->i + 1] >= '0' && c->p[c->i + 1] <= '9')
    return sqz__npy_bad(c, "an integer in the shape has a leading zero");
  uint64_t x = 0;
  while ((ch = sqz__npy_peek(c)) >= '0' && ch <= '9') {
    if (x > (UINT64_MAX - (uint64_t)(ch - '0')) / 10) return sqz__npy_bad(c, "a dimension exceeds 2^64 - 1");
    x = x * 10 + (uint64_t)(ch - '0');
    c->i++;
  }
  *v = x;
  return SQZ_OK;
}

/* A tuple of dimensions: (), (5,), (7, 7), (7, 7,). (5) is an integer in Python, not a tuple. */
static int sqz__npy_shape(sqz_npy_cursor *c, sqz_npy_header *out) {
  if (sqz__npy_peek(c) != '(') return sqz__npy_bad(c, "'shape' must be a tuple such as (7, 7)");
  c->i++;
  sqz__npy_ws(c);
  int n = 0, comma = 0;
  for (;;) {
    if (sqz__npy_peek(c) == ')') {
      if (n == 1 && !comma) return sqz__npy_bad(c, "'shape' (N) is not a tuple, (N,) is");
      c->i++;
      break;
    }
    if (n && !comma) return sqz__npy_bad(c, "expected ',' or ')' in the shape");
    if (n == SQZ_NPY_MAX_DIMS) return sqz__npy_bad(c, "more than 32 dimensions");
    int st = sqz__npy_uint(c, &out->shape[n++]);
    if (st != SQZ_OK) return st;
    sqz__npy_ws(c);
    comma = sqz__npy_peek(c) == ',';
    if (comma) {
      c->i++;
      sqz__npy_ws(c);
    }
  }
  out->ndim = n;
  return SQZ_OK;
}

/* One "key: value" pair; *seen collects the keys met (bit per key). */
static int sqz__npy_item(sqz_npy_cursor *c, sqz_npy_header *out, int *fortran, unsigned *seen) {
  char key[32];
  int st = sqz__npy_string(c, key, sizeof key, "expected a quoted key");
  if (st != SQZ_OK) return st;
  int k = 0;
  while (k < 3 && strcmp(key, sqz_npy_keys[k]) != 0) k++;
  if (k == 3)
    return sqz__npy_err(c->err, c->errlen,
                        "header has the unexpected key '%s' (a .npy header holds 'descr', 'fortran_order' and 'shape')",
                        key);
  if (*seen & (1u << k)) return sqz__npy_err(c->err, c->errlen, "header has the key '%s' twice", key);
  *seen |= 1u << k;
  sqz__npy_ws(c);
  if (sqz__npy_peek(c) != ':') return sqz__npy_bad(c, "expected ':' after a key");
  c->i++;
  sqz__npy_ws(c);
  if (k == 0) {
    if (sqz__npy_peek(c) == '[')
      return sqz__npy_err(c->err, c->errlen, "structured dtypes (a list as 'descr') are not supported");
    return sqz__npy_string(c, out->descr, sizeof out->descr, "'descr' must be a quoted dtype such as '<f4'");
  }
  if (k == 1) {
    if (sqz__npy_word(c, "True")) *fortran = 1;
    else if (sqz__npy_word(c, "False")) *fortran = 0;
    else return sqz__npy_bad(c, "'fortran_order' must be True or False");
    return SQZ_OK;
  }
  return sqz__npy_shape(c, out);
}

/* The dtype's cell type; big-endian and other dtypes refused by name. */
static int sqz__npy_dtype(const char *descr, sqz_type *type, char *err, size_t errlen) {
  for (size_t i = 0; i < SQZ_NPY_NDTYPES; i++)
    if (strcmp(descr, sqz_npy_dtypes[i].descr) == 0) {
      *type = sqz_npy_dtypes[i].type;
      return SQZ_OK;
    }
  char name[32];
  sqz__npy_dtype_name(descr, name, sizeof name);
  if (descr[0] == '>')
    return sqz__npy_err(err, errlen,
                        "big-endian dtype '%s' (%s) is not supported: sqz reads little-endian |u1, <i4, <f4 and <f8",
                        descr, name);
  return sqz__npy_err(err, errlen, "dtype '%s' (%s) is not supported: sqz reads |u1, <i4, <f4 and <f8", descr, name);
}

size_t sqz__npy_header_size(const unsigned char *buf, size_t len) {
  if (len < SQZ_NPY_PREAMBLE || memcmp(buf, sqz_npy_magic, 6) != 0 || buf[6] != 1 || buf[7] != 0) return 0;
  return SQZ_NPY_PREAMBLE + ((size_t)buf[8] | (size_t)buf[9] << 8);
}

int sqz__npy_parse_header(const unsigned char *buf, size_t len, sqz_npy_header *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  if (len < 6 || memcmp(buf, sqz_npy_magic, 6) != 0)
    return sqz__npy_err(err, errlen, "not a NumPy .npy file (it does not start with \\x93NUMPY)");
  if (len < 8) return sqz__npy_err(err, errlen, "truncated header: the file ends inside the preamble");
  if (buf[6] != 1 || buf[7] != 0)
    return sqz__npy_err(err, errlen, "format version %u.%u is not supported (sqz reads version 1.0)", buf[6], buf[7]);
  if (len < SQZ_NPY_PREAMBLE) return sqz__npy_err(err, errlen, "truncated header: the file ends inside the preamble");
  size_t total = sqz__npy_header_size(buf, len);
  if (len < total)
    return sqz__npy_err(err, errlen, "truncated header: %zu of %zu header bytes present", len - SQZ_NPY_PREAMBLE,
                        total - SQZ_NPY_PREAMBLE);
  sqz_npy_cursor c = {buf, SQZ_NPY_PREAMBLE, total, err, errlen};
  sqz__npy_ws(&c);
  if (sqz__npy_peek(&c) != '{') return sqz__npy_bad(&c, "expected '{'");
  c.i++;
  sqz__npy_ws(&c);
  unsigned seen = 0;
  int fortran = 0, comma = 1, st;
  while (sqz__npy_peek(&c) != '}') {
    if (!comma) return sqz__npy_bad(&c, "expected ',' or '}' after a value");
    if ((st = sqz__npy_item(&c, out, &fortran, &seen)) != SQZ_OK) return st;
    sqz__npy_ws(&c);
    comma = sqz__npy_peek(&c) == ',';
    if (comma) {
      c.i++;
      sqz__npy_ws(&c);
    }
  }
  c.i++;
  sqz__npy_ws(&c);
  if (c.i != c.end) return sqz__npy_bad(&c, "expected only whitespace after the closing '}'");
  for (int k = 0; k < 3; k++)
    if (!(seen & (1u << k))) return sqz__npy_err(err, errlen, "header has no key '%s'", sqz_npy_keys[k]);
  if (fortran)
    return sqz__npy_err(err, errlen, "fortran_order True (column-major data) is not supported: save a C-order array");
  out->data_offset = total;
  return sqz__npy_dtype(out->descr, &out->type, err, errlen);
}

size_t sqz__npy_format_header(sqz_type t, int ndim, const uint64_t *shape, unsigned char *buf, size_t cap) {
  const char *descr = sqz__npy_descr(t);
  if (!descr || ndim < 0 || ndim > SQZ_NPY_MAX_DIMS) return 0;
  char dims[SQZ_NPY_MAX_DIMS * 24], dict[SQZ_NPY_MAX_DIMS * 24 + 128];
  size_t k = 0;
  dims[0] = 0;
  for (int i = 0; i < ndim; i++)
    k += (size_t)snprintf(dims + k, sizeof dims - k, i ? ", %llu" : "%llu", (unsigned long long)shape[i]);
  if (ndim == 1) snprintf(dims + k, sizeof dims - k, ",");
  int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, dims);
  size_t total = (SQZ_NPY_PREAMBLE + (size_t)n + 1 + 63) / 64 * 64; /* + '\n', then NumPy's 64-byte alignment */
  size_t hlen = total - SQZ_NPY_PREAMBLE;
  if (total > cap || hlen > 0xffff) return 0;
  memcpy(buf, sqz_npy_magic, 6);
  buf[6] = 1;
  buf[7] = 0;
  buf[8] = (unsigned char)(hlen & 0xff);
  buf[9] = (unsigned char)(hlen >> 8);
  memcpy(buf + SQZ_NPY_PREAMBLE, dict, (size_t)n);
  memset(buf + SQZ_NPY_PREAMBLE + n, ' ', hlen - (size_t)n - 1);
  buf[total - 1] = '\n';
  return total;
}

const char *sqz__npy_descr(sqz_type t) {
  for (size_t i = 0; i < SQZ_NPY_NDTYPES; i++)
    if (sqz_npy_dtypes[i].type == t) return sqz_npy_dtypes[i].descr;
  return NULL;
}

const char *sqz__npy_cell_name(sqz_type t) {
  for (size_t i = 0; i < SQZ_NPY_NDTYPES; i++)
    if (sqz_npy_dtypes[i].type == t) return sqz_npy_dtypes[i].cell;
  return "unknown";
}

const char *sqz__npy_dtype_name(const char *descr, char *buf, size_t cap) {
  const char *d = descr + (descr[0] && strchr("<>|=", descr[0]) ? 1 : 0);
  unsigned size = 0;
  const char *q = d + (*d ? 1 : 0);
  while (*q >= '0' && *q <= '9' && size < 1000) size = size * 10 + (unsigned)(*q++ - '0');
  const char *kind = NULL;
  switch (*d) {
  case 'b': kind = size == 1 ? "bool" : NULL; break;
  case 'i': kind = "int"; break;
  case 'u': kind = "uint"; break;
  case 'f': kind = "float"; break;
  case 'c': kind = "complex"; break;
  case 'U': snprintf(buf, cap, "str"); return buf;
  case 'S': snprintf(buf, cap, "bytes"); return buf;
  case 'O': snprintf(buf, cap, "object"); return buf;
  case 'M': snprintf(buf, cap, "datetime64"); return buf;
  case 'm': snprintf(buf, cap, "timedelta64"); return buf;
  case 'V': snprintf(buf, cap, "void"); return buf;
  default: break;
  }
  if (!kind || size == 0 || *q) snprintf(buf, cap, "unknown type");
  else if (strcmp(kind, "bool") == 0) snprintf(buf, cap, "bool");
  else snprintf(buf, cap, "%s%u", kind, size * 8);
  return buf;
}
