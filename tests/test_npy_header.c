/* test_npy_header.c — the .npy 1.0 header parser and writer on memory buffers: good, bad, cut short. */
/* labels: host */
#include <stdlib.h>
#include <string.h>

#include "io/npy.h"
#include "sqz_test.h"

/* A heap buffer of exactly the preamble (version major.minor) and dict, so reads past it are caught
 * by ASan; *len gets its size. */
static unsigned char *npy_buf(const char *dict, int major, int minor, size_t *len) {
  size_t n = strlen(dict);
  unsigned char *b = malloc(SQZ_NPY_PREAMBLE + n + 1);
  ck_assert_ptr_nonnull(b);
  memcpy(b, "\x93NUMPY", 6);
  b[6] = (unsigned char)major;
  b[7] = (unsigned char)minor;
  b[8] = (unsigned char)(n & 0xff);
  b[9] = (unsigned char)(n >> 8);
  memcpy(b + SQZ_NPY_PREAMBLE, dict, n);
  *len = SQZ_NPY_PREAMBLE + n;
  return b;
}

static int parse(const char *dict, sqz_npy_header *h, char *err, size_t errlen) {
  size_t len;
  unsigned char *b = npy_buf(dict, 1, 0, &len);
  int st = sqz__npy_parse_header(b, len, h, err, errlen);
  free(b);
  return st;
}

START_TEST(good_headers) {
  sqz_npy_header h;
  char err[320] = "";
  ck_assert_int_eq(parse("{'descr': '<f4', 'fortran_order': False, 'shape': (7, 7), }", &h, err, sizeof err), SQZ_OK);
  ck_assert_int_eq(h.type, SQZ_F32);
  ck_assert_int_eq(h.ndim, 2);
  ck_assert_uint_eq(h.shape[0], 7);
  ck_assert_uint_eq(h.shape[1], 7);
  ck_assert_str_eq(h.descr, "<f4");
  ck_assert_uint_eq(h.data_offset, SQZ_NPY_PREAMBLE + 59);
  ck_assert_int_eq(parse("{'shape':(3,4,5),'fortran_order':False,'descr':'<i4'}", &h, err, sizeof err), SQZ_OK);
  ck_assert_int_eq(h.type, SQZ_I32);
  ck_assert_int_eq(h.ndim, 3);
  ck_assert_uint_eq(h.shape[2], 5);
  ck_assert_int_eq(parse("  {\n \"fortran_order\" : False ,\t'descr' : \"|u1\" , 'shape' : ( 5 , ) }  \n", &h, err,
                         sizeof err), SQZ_OK);
  ck_assert_int_eq(h.type, SQZ_U8);
  ck_assert_int_eq(h.ndim, 1);
  ck_assert_uint_eq(h.shape[0], 5);
  ck_assert_int_eq(parse("{'descr': '<u1', 'fortran_order': False, 'shape': ()}", &h, err, sizeof err), SQZ_OK);
  ck_assert_int_eq(h.type, SQZ_U8);
  ck_assert_int_eq(h.ndim, 0);
  ck_assert_int_eq(parse("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3,),}\n", &h, err, sizeof err),
                   SQZ_OK);
  ck_assert_int_eq(h.type, SQZ_F64);
  ck_assert_uint_eq(h.shape[1], 3);
  const char *widest = "{'descr':'<i4','fortran_order':False,'shape':(0, 18446744073709551615)}";
  ck_assert_int_eq(parse(widest, &h, err, sizeof err), SQZ_OK);
  ck_assert_uint_eq(h.shape[1], UINT64_MAX);
}
END_TEST

/* Each bad header fails with SQZ_ERR_PARSE and a message containing `want`. */
static const struct {
  const char *dict, *want;
} bad_dicts[] = {
    {"[1, 2]", "expected '{'"},
    {"", "expected '{'"},
    {"{'descr': '<f4', 'shape': (7,)}", "no key 'fortran_order'"},
    {"{'descr': '<f4', 'fortran_order': False}", "no key 'shape'"},
    {"{}", "no key 'descr'"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (7,), 'foo': 1}", "unexpected key 'foo'"},
    {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (7,)}", "key 'descr' twice"},
    {"{'descr': '<f4', 'fortran_order': True, 'shape': (7,)}", "fortran_order True"},
    {"{'descr': '<f4', 'fortran_order': true, 'shape': (7,)}", "True or False"},
    {"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (7,)}", "True or False"},
    {"{'descr': '>i4', 'fortran_order': False, 'shape': (7,)}", "big-endian dtype '>i4' (int32)"},
    {"{'descr': '>f8', 'fortran_order': False, 'shape': (7,)}", "big-endian dtype '>f8' (float64)"},
    {"{'descr': '|b1', 'fortran_order': False, 'shape': (7,)}", "dtype '|b1' (bool) is not supported"},
    {"{'descr': '<i8', 'fortran_order': False, 'shape': (7,)}", "dtype '<i8' (int64) is not supported"},
    {"{'descr': '<U3', 'fortran_order': False, 'shape': (7,)}", "'<U3' (str)"},
    {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (7,)}", "structured"},
    {"{'descr': <f4, 'fortran_order': False, 'shape': (7,)}", "quoted dtype"},
    {"{'descr': '<f4\\n', 'fortran_order': False, 'shape': (7,)}", "unsupported character"},
    {"{'descr': '<f4, 'fortran_order': False, 'shape': (7,)}", "expected ',' or '}'"},
    {"{'descr' '<f4', 'fortran_order': False, 'shape': (7,)}", "expected ':'"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (5)}", "not a tuple"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': 5}", "must be a tuple"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 2)}", "non-negative integer"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (5 5)}", "expected ',' or ')'"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (,)}", "non-negative integer"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (07,)}", "leading zero"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (18446744073709551616,)}", "2^64"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
     "1,1)}",
     "more than 32"},
    {"{'descr': '<f4' 'fortran_order': False, 'shape': (7,)}", "expected ',' or '}'"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (7,)} x", "after the closing '}'"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (7,)", "expected ',' or '}'"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (7,),,}", "quoted key"},
    {"{'descr': '<f4', 'fortran_order': False, 'shape': (7,), 'sha", "unterminated string"},
};

START_TEST(bad_headers) {
  sqz_npy_header h;
  char err[320];
  for (size_t i = 0; i < sizeof bad_dicts / sizeof bad_dicts[0]; i++) {
    err[0] = 0;
    int st = parse(bad_dicts[i].dict, &h, err, sizeof err);
    ck_assert_msg(st == SQZ_ERR_PARSE, "%s: accepted", bad_dicts[i].dict);
    ck_assert_msg(strstr(err, bad_dicts[i].want), "%s: message '%s' lacks '%s'", bad_dicts[i].dict, err,
                  bad_dicts[i].want);
  }
  /* a NUL inside the header (a C string literal would stop there) */
  size_t len;
  unsigned char *b = npy_buf("{'descr': '<f4', 'fortran_order': False, 'shape': (7,)}  ", 1, 0, &len);
  b[len - 1] = 0;
  ck_assert_int_eq(sqz__npy_parse_header(b, len, &h, err, sizeof err), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(err, "byte 0x00"));
  free(b);
}
END_TEST

START_TEST(bad_preambles) {
  sqz_npy_header h;
  char err[320];
  const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (7,)}";
  size_t len;
  unsigned char *b = npy_buf(dict, 2, 0, &len);
  ck_assert_int_eq(sqz__npy_parse_header(b, len, &h, err, sizeof err), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(err, "version 2.0 is not supported"));
  ck_assert_uint_eq(sqz__npy_header_size(b, len), 0);
  b[6] = 3;
  ck_assert_int_eq(sqz__npy_parse_header(b, len, &h, err, sizeof err), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(err, "version 3.0"));
  b[6] = 1;
  b[7] = 1;
  ck_assert_int_eq(sqz__npy_parse_header(b, len, &h, err, sizeof err), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(err, "version 1.1"));
  b[7] = 0;
  b[5] = 'Z';
  ck_assert_int_eq(sqz__npy_parse_header(b, len, &h, err, sizeof err), SQZ_ERR_PARSE);
  ck_assert_ptr_nonnull(strstr(err, "not a NumPy .npy file"));
  b[5] = 'Y';
  ck_assert_uint_eq(sqz__npy_header_size(b, len), len);
  /* every proper prefix of a good file is refused, without reading past it (ASan checks) */
  for (size_t cut = 0; cut < len; cut++) {
    unsigned char *p = malloc(cut ? cut : 1);
    memcpy(p, b, cut);
    ck_assert_int_eq(sqz__npy_parse_header(p, cut, &h, err, sizeof err), SQZ_ERR_PARSE);
    ck_assert_msg(strstr(err, cut < 6 ? "not a NumPy" : "truncated header"), "cut %zu: %s", cut, err);
    free(p);
  }
  ck_assert_int_eq(sqz__npy_parse_header(b, len, &h, NULL, 0), SQZ_OK);
  free(b);
}
END_TEST

/* A dict cut anywhere (HEADER_LEN saying so) is an error, and the parser stays inside it. */
START_TEST(cut_dicts) {
  const char *dict = "{ 'descr' : '<f8' , 'fortran_order' : False , 'shape' : ( 12 , 34 , ) , }";
  sqz_npy_header h;
  char err[320];
  for (size_t cut = 0; cut < strlen(dict); cut++) {
    char part[128];
    memcpy(part, dict, cut);
    part[cut] = 0;
    ck_assert_msg(parse(part, &h, err, sizeof err) == SQZ_ERR_PARSE, "prefix of %zu accepted", cut);
  }
  ck_assert_int_eq(parse(dict, &h, err, sizeof err), SQZ_OK);
}
END_TEST

START_TEST(written_headers) {
  static const struct {
    sqz_type t;
    int ndim;
    uint64_t shape[3];
    const char *text;
  } cases[] = {
      {SQZ_U8, 2, {7, 7, 0}, "{'descr': '|u1', 'fortran_order': False, 'shape': (7, 7), }"},
      {SQZ_I32, 3, {5, 5, 5}, "{'descr': '<i4', 'fortran_order': False, 'shape': (5, 5, 5), }"},
      {SQZ_F32, 1, {9, 0, 0}, "{'descr': '<f4', 'fortran_order': False, 'shape': (9,), }"},
      {SQZ_F64, 2, {4294967296ULL, 3, 0}, "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 3), }"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    unsigned char buf[256];
    size_t n = sqz__npy_format_header(cases[i].t, cases[i].ndim, cases[i].shape, buf, sizeof buf);
    ck_assert_uint_eq(n % 64, 0);
    ck_assert_uint_gt(n, 0);
    ck_assert_int_eq(buf[n - 1], '\n');
    ck_assert_uint_eq(buf[8] | buf[9] << 8, n - SQZ_NPY_PREAMBLE);
    ck_assert_int_eq(memcmp(buf + SQZ_NPY_PREAMBLE, cases[i].text, strlen(cases[i].text)), 0);
    for (size_t k = SQZ_NPY_PREAMBLE + strlen(cases[i].text); k + 1 < n; k++) ck_assert_int_eq(buf[k], ' ');
    sqz_npy_header h;
    char err[320];
    ck_assert_int_eq(sqz__npy_parse_header(buf, n, &h, err, sizeof err), SQZ_OK);
    ck_assert_int_eq(h.type, cases[i].t);
    ck_assert_int_eq(h.ndim, cases[i].ndim);
    ck_assert_int_eq(memcmp(h.shape, cases[i].shape, sizeof(uint64_t) * (size_t)cases[i].ndim), 0);
    ck_assert_uint_eq(h.data_offset, n);
    ck_assert_uint_eq(sqz__npy_format_header(cases[i].t, cases[i].ndim, cases[i].shape, buf, n - 1), 0);
  }
}
END_TEST

START_TEST(dtype_names) {
  char b[32];
  ck_assert_str_eq(sqz__npy_dtype_name("<f4", b, sizeof b), "float32");
  ck_assert_str_eq(sqz__npy_dtype_name("|u1", b, sizeof b), "uint8");
  ck_assert_str_eq(sqz__npy_dtype_name(">i2", b, sizeof b), "int16");
  ck_assert_str_eq(sqz__npy_dtype_name("<c16", b, sizeof b), "complex128");
  ck_assert_str_eq(sqz__npy_dtype_name("|b1", b, sizeof b), "bool");
  ck_assert_str_eq(sqz__npy_dtype_name("<M8[ns]", b, sizeof b), "datetime64");
  ck_assert_str_eq(sqz__npy_dtype_name("", b, sizeof b), "unknown type");
  ck_assert_str_eq(sqz__npy_dtype_name("<f4x", b, sizeof b), "unknown type");
  ck_assert_str_eq(sqz__npy_descr(SQZ_U8), "|u1");
  ck_assert_str_eq(sqz__npy_cell_name(SQZ_F64), "f64");
}
END_TEST

int main(void) {
  Suite *s = suite_create("npy_header");
  TCase *tc = tcase_create("parse");
  tcase_add_test(tc, good_headers);
  tcase_add_test(tc, bad_headers);
  tcase_add_test(tc, bad_preambles);
  tcase_add_test(tc, cut_dicts);
  tcase_add_test(tc, written_headers);
  tcase_add_test(tc, dtype_names);
  suite_add_tcase(s, tc);
  return sqz_test_run(s);
}
