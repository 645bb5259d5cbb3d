/*
 * Hostile inputs through the C ABI, the same cases as tests/hostile.rs: each call ends with a
 * result or a clear error within a time bound (the test's timeout catches a hang), and the
 * largest ones within a memory bound (the peak resident size, read from /proc/self/status on
 * Linux).
 *
 * Usage: test_hostile [SCALE]   sizes are divided by SCALE (default 1: a 1 GB source, ten
 * million lines, a 50 MB line, ...); the sanitizer build runs with a larger SCALE.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "v4a.h"
#include "support/buffer.h"

static size_t scale = 1;

static double now(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The peak resident set size in bytes (VmHWM), or 0 where it cannot be read. */
static size_t peak_rss(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t kb = 0;
    if (f == NULL) {
        return 0;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kb = (size_t)strtoull(line + 6, NULL, 10);
        }
    }
    fclose(f);
    return kb * 1024;
}

/* Makes room for `more` bytes, so that a large input is built without copies. */
static void reserve(buf *b, size_t more) {
    if (b->len + more + 1 > b->cap) {
        b->cap = b->len + more + 1;
        b->ptr = (char *)xrealloc(b->ptr, b->cap);
    }
}

static void put_repeat(buf *b, const char *s, size_t times) {
    size_t i;
    reserve(b, strlen(s) * times);
    for (i = 0; i < times; i++) {
        buf_str(b, s);
    }
}

static void release(buf *b) {
    free(b->ptr);
    b->ptr = NULL;
    b->len = b->cap = 0;
}

/* Applies `diff` to `source` in update mode; returns the status, the result in *out. */
static v4a_status apply_n(const char *source, size_t source_len, const char *diff, size_t diff_len,
                          const v4a_options *o, v4a_result **out) {
    return v4a_apply((const uint8_t *)source, source_len, (const uint8_t *)diff, diff_len,
                     V4A_MODE_UPDATE, o, out);
}

/* Applies the C-string `diff` to the buffer `src`. */
static v4a_status apply_to(const buf *src, const char *diff, const v4a_options *o, v4a_result **out) {
    return apply_n(src->ptr, src->len, diff, strlen(diff), o, out);
}

static v4a_status apply_s(const char *source, const char *diff, v4a_result **out) {
    return apply_n(source, strlen(source), diff, strlen(diff), NULL, out);
}

/* Reports a case's time and fails it past `limit` seconds. */
static void timed(const char *what, double t0, double limit) {
    double t = now() - t0;
    fprintf(stderr, "%s: %.2f s\n", what, t);
    CHECK(t < limit);
}

static int ends_with(v4a_bytes v, const char *s) {
    size_t n = strlen(s);
    return v.ptr != NULL && v.len >= n && memcmp(v.ptr + v.len - n, s, n) == 0;
}

static int starts_with(v4a_bytes v, const char *s) {
    size_t n = strlen(s);
    return v.ptr != NULL && v.len >= n && memcmp(v.ptr, s, n) == 0;
}

static void one_gigabyte_source(void) {
    const char *line = "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxy\n";
    const size_t n = ((size_t)1 << 30) / scale, line_len = strlen(line);
    size_t base = peak_rss(), peak, len;
    buf src = {0};
    v4a_result *r = NULL;
    double t0;

    reserve(&src, n + 64);
    while (src.len + line_len < n) {
        memcpy(src.ptr + src.len, line, line_len);
        src.len += line_len;
    }
    buf_str(&src, "the one distinct line\n");
    len = src.len;
    t0 = now();
    CHECK_STATUS(apply_to(&src, "@@\n-the one distinct line\n+changed\n", NULL, &r),
                 V4A_STATUS_OK);
    timed("1 GB source", t0, 120);
    CHECK(ends_with(v4a_result_text(r), "\nchanged\n"));
    CHECK(v4a_result_text(r).len == len - 22 + 8);
    CHECK(v4a_result_source(r).len == len);
    v4a_result_free(r);
    /* The caller's source, its copy in the result, the new text and the line index. */
    peak = peak_rss();
    /* At full size only: a sanitizer's quarantine of freed blocks would dwarf a small input. */
    if (scale == 1 && base != 0 && peak != 0) {
        fprintf(stderr, "1 GB source: peak resident size grew by %zu MB (%.2f x the source)\n",
                (peak - base) >> 20, (double)(peak - base) / (double)len);
        CHECK(peak - base < 4 * len);
    }
    release(&src);
}

static void ten_million_short_lines(void) {
    const size_t n = 10000000 / scale;
    buf src = {0};
    v4a_result *r = NULL;
    double t0;

    put_repeat(&src, "x\n", n);
    buf_str(&src, "y\n");
    t0 = now();
    CHECK_STATUS(apply_to(&src, "@@\n x\n-y\n+z\n", NULL, &r), V4A_STATUS_OK);
    timed("10M short lines", t0, 60);
    CHECK(v4a_result_text(r).len == src.len && ends_with(v4a_result_text(r), "x\nz\n"));
    v4a_result_free(r);
    release(&src);
}

static void a_single_fifty_megabyte_line(void) {
    const size_t n = 50000000 / scale;
    buf big = {0}, src = {0}, found = {0}, missing = {0};
    v4a_result *r = NULL;
    const v4a_error *e;
    double t0;

    put_repeat(&big, "ab", n / 2);
    buf_str(&src, "head\n");
    buf_add(&src, big.ptr, big.len);
    buf_str(&src, "\ntail\n");
    /* Found: the huge line is context. */
    buf_str(&found, "@@\n-head\n+HEAD\n ");
    buf_add(&found, big.ptr, big.len);
    buf_str(&found, "\n");
    t0 = now();
    CHECK_STATUS(apply_n(src.ptr, src.len, found.ptr, found.len, NULL, &r), V4A_STATUS_OK);
    timed("50 MB line, found", t0, 60);
    CHECK(v4a_result_text(r).len == n + 11 && starts_with(v4a_result_text(r), "HEAD\nabab"));
    v4a_result_free(r);
    /* Not found: the diagnostic stays bounded on a huge line. */
    buf_str(&missing, "@@\n ");
    buf_add(&missing, big.ptr, big.len);
    buf_str(&missing, "x\n-tail\n+TAIL\n");
    t0 = now();
    CHECK_STATUS(apply_n(src.ptr, src.len, missing.ptr, missing.len, NULL, &r),
                 V4A_STATUS_CONTEXT_NOT_FOUND);
    timed("50 MB line, not found", t0, 60);
    e = v4a_result_error(r);
    CHECK(e != NULL && e->message.len > 0);
    if (e != NULL) {
        fprintf(stderr, "50 MB line: a %zu-byte message, a %zu-byte corrected hunk\n",
                e->message.len, e->corrected_hunk.len);
        /* Quoted lines are cut, and corrected hunks over 64 KiB are not quoted. */
        CHECK(e->message.len < 64 * 1024 && e->corrected_hunk.len <= 64 * 1024);
    }
    v4a_result_free(r);
    release(&big);
    release(&src);
    release(&found);
    release(&missing);
}

static void ten_thousand_stacked_anchors(void) {
    buf src = {0}, diff = {0};
    v4a_result *r = NULL;
    v4a_status st;
    double t0;
    int i;

    for (i = 0; i < 10000; i++) {
        buf_printf(&src, "%*slevel %d\n", i % 64, "", i);
        buf_printf(&diff, "@@ level %d\n", i);
    }
    buf_str(&diff, "+inserted\n");
    t0 = now();
    st = apply_n(src.ptr, src.len, diff.ptr, diff.len, NULL, &r);
    timed("10,000 stacked anchors", t0, 30);
    /* Placed after the innermost anchor, or a clear error; never a hang. */
    CHECK(st == V4A_STATUS_OK || st == V4A_STATUS_ANCHOR_NOT_FOUND ||
          st == V4A_STATUS_SEARCH_BUDGET);
    if (st == V4A_STATUS_OK) {
        CHECK(v4a_result_text(r).len == src.len + strlen("inserted\n"));
    } else {
        CHECK(v4a_result_error(r) != NULL && v4a_result_error(r)->message.len > 0);
    }
    v4a_result_free(r);
    release(&src);
    release(&diff);
}

static void one_hundred_thousand_hunks(void) {
    const size_t n = 100000 / scale;
    buf src = {0}, diff = {0};
    v4a_result *r = NULL;
    double t0;
    size_t i;

    for (i = 0; i < n; i++) {
        buf_printf(&src, "line %zu\n", i);
        buf_printf(&diff, "@@\n-line %zu\n+LINE %zu\n", i, i);
    }
    t0 = now();
    CHECK_STATUS(apply_n(src.ptr, src.len, diff.ptr, diff.len, NULL, &r), V4A_STATUS_OK);
    timed("100,000 hunks", t0, 60);
    CHECK(starts_with(v4a_result_text(r), "LINE 0\nLINE 1\n"));
    CHECK(v4a_result_hunks(r).len == n);
    v4a_result_free(r);
    release(&src);
    release(&diff);
}

static void an_anchor_that_matches_every_line(void) {
    buf src = {0};
    v4a_result *r = NULL;
    const v4a_error *e;
    double t0;

    put_repeat(&src, "same\n", 1000000 / scale);
    t0 = now();
    CHECK_STATUS(apply_to(&src, "@@ same\n-same\n+other\n", NULL, &r),
                 V4A_STATUS_AMBIGUOUS);
    timed("an anchor matching every line", t0, 30);
    e = v4a_result_error(r);
    CHECK(e != NULL && e->candidates.len > 1 && e->candidates.len <= 100);
    CHECK(e != NULL && (view_contains(e->message, "matches 100 lines") ||
                        view_contains(e->message, "in all")));
    v4a_result_free(r);
    release(&src);
}

static void a_hunk_equal_to_the_whole_file(void) {
    const size_t n = 200000 / scale;
    buf src = {0}, diff = {0};
    v4a_result *r = NULL;
    double t0;
    size_t i;

    buf_str(&diff, "@@\n");
    for (i = 0; i < n; i++) {
        buf_printf(&src, "l%zu\n", i);
        if (i + 1 < n) {
            buf_printf(&diff, " l%zu\n", i);
        }
    }
    buf_printf(&diff, "-l%zu\n+end\n", n - 1);
    t0 = now();
    CHECK_STATUS(apply_n(src.ptr, src.len, diff.ptr, diff.len, NULL, &r), V4A_STATUS_OK);
    timed("a hunk equal to the whole file", t0, 30);
    CHECK(ends_with(v4a_result_text(r), "\nend\n"));
    v4a_result_free(r);
    release(&src);
    release(&diff);
}

/* Writes the UTF-8 encoding of `c` (a valid scalar value) to `out`; returns its length. */
static size_t utf8(uint32_t c, char *out) {
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xC0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

static void every_unicode_space_and_dash_folds(void) {
    /* Unicode's White_Space outside ASCII, less the line separators (U+0085, U+2028,
     * U+2029), which end lines rather than separate words. */
    static const uint32_t spaces[] = {0x00A0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
                                      0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
                                      0x200A, 0x202F, 0x205F, 0x3000};
    static const uint32_t dashes[] = {0x2010, 0x2011, 0x2012, 0x2013, 0x2014,
                                      0x2015, 0x2212, 0xFE58, 0xFE63, 0xFF0D};
    char src[32], enc[4];
    size_t i, n;
    v4a_result *r = NULL;

    for (i = 0; i < sizeof spaces / sizeof spaces[0]; i++) {
        n = utf8(spaces[i], enc);
        snprintf(src, sizeof src, "a%.*sb\nz\n", (int)n, enc);
        CHECK_STATUS(apply_s(src, "@@\n-a b\n+c\n", &r), V4A_STATUS_OK);
        CHECK_VIEW(v4a_result_text(r), "c\nz\n");
        CHECK(v4a_result_fuzz(r) == 100);
        if (v4a_result_status(r) != V4A_STATUS_OK) {
            fprintf(stderr, "  the space was U+%04X\n", (unsigned)spaces[i]);
        }
        v4a_result_free(r);
    }
    for (i = 0; i < sizeof dashes / sizeof dashes[0]; i++) {
        n = utf8(dashes[i], enc);
        snprintf(src, sizeof src, "x %.*s y\n", (int)n, enc);
        CHECK_STATUS(apply_s(src, "@@\n-x - y\n+ok\n", &r), V4A_STATUS_OK);
        CHECK_VIEW(v4a_result_text(r), "ok\n");
        if (v4a_result_status(r) != V4A_STATUS_OK) {
            fprintf(stderr, "  the dash was U+%04X\n", (unsigned)dashes[i]);
        }
        v4a_result_free(r);
    }
}

static void invalid_utf8_at_every_position_class(void) {
    static const struct {
        const char *bytes;
        size_t len;
        uint64_t offset;
    } cases[] = {
        {"\xff" "abc\n", 5, 0},              /* start */
        {"ab\xe2\x82\n", 5, 2},              /* middle of a multi-byte sequence */
        {"abc\n\xe2", 5, 4},                 /* truncated at the end */
        {"a\xc0\xaf" "b\n", 5, 1},           /* overlong encoding of '/' */
        {"a\xed\xa0\x80" "b\n", 6, 1},       /* a surrogate encoded in UTF-8 */
        {"ok\n\xf4\x90\x80\x80\n", 8, 3},    /* above U+10FFFF */
        {"x\x80\n", 3, 1},                   /* a lone continuation byte */
    };
    size_t i;
    v4a_result *r = NULL;
    const v4a_error *e;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_STATUS(apply_n(cases[i].bytes, cases[i].len, "@@\n-x\n+y\n", 9, NULL, &r),
                     V4A_STATUS_INVALID_UTF8);
        e = v4a_result_error(r);
        CHECK(e != NULL && e->byte_offset == cases[i].offset);
        CHECK(e != NULL && view_equals(e->input, "source", 6));
        v4a_result_free(r);
        CHECK_STATUS(apply_n("x\n", 2, cases[i].bytes, cases[i].len, NULL, &r),
                     V4A_STATUS_INVALID_UTF8);
        e = v4a_result_error(r);
        CHECK(e != NULL && e->byte_offset == cases[i].offset);
        CHECK(e != NULL && view_equals(e->input, "patch", 5));
        v4a_result_free(r);
    }
}

static void nul_bytes_and_cr_only_files(void) {
    static const char src[] = "a\0b\rc\0\rd";
    static const char diff[] = "@@\n a\0b\n-c\0\n+C\n";
    v4a_result *r = NULL;
    v4a_status st;

    CHECK_STATUS(apply_n(src, sizeof src - 1, diff, sizeof diff - 1, NULL, &r), V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "a\0b\rC\rd");
    v4a_result_free(r);
    st = apply_s("\r\r\r", "@@\n \n-\n+x\n", &r);
    CHECK(st == V4A_STATUS_OK || st == V4A_STATUS_AMBIGUOUS);
    v4a_result_free(r);
}

static void end_patch_inside_hunk_bodies(void) {
    static const char p[] =
        "*** Begin Patch\n*** Update File: a\n@@\n-x\n*** End Patch\n+y\n*** End Patch\n";
    v4a_patch *patch = NULL;
    v4a_result *r = NULL;
    const v4a_error *e;

    /* At column 0 it ends the patch: what follows must be blank, else a syntax error. */
    CHECK_STATUS(v4a_patch_parse((const uint8_t *)p, sizeof p - 1, &patch),
                 V4A_STATUS_PATCH_SYNTAX);
    e = v4a_patch_error(patch);
    CHECK(e != NULL && e->patch_line == 6);
    v4a_patch_free(patch);
    /* Indented, it is a context line like any other. */
    CHECK_STATUS(apply_s("*** End Patch\nx\n", "@@\n *** End Patch\n-x\n+y\n", &r), V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "*** End Patch\ny\n");
    v4a_result_free(r);
}

static void patches_of_only_whitespace(void) {
    static const char *patches[] = {"", " ", "\n\n\n", "\t \r\n  \n", "   \n\t"};
    size_t i;
    v4a_result *r = NULL;
    v4a_patch *patch = NULL;

    for (i = 0; i < sizeof patches / sizeof patches[0]; i++) {
        CHECK_STATUS(apply_s("x\n", patches[i], &r), V4A_STATUS_PATCH_SYNTAX);
        v4a_result_free(r);
        CHECK_STATUS(
            v4a_patch_parse((const uint8_t *)patches[i], strlen(patches[i]), &patch),
            V4A_STATUS_PATCH_SYNTAX);
        v4a_patch_free(patch);
    }
}

static void repetitive_files_where_every_window_is_a_near_match(void) {
    const size_t n = 200000 / scale;
    buf src = {0}, diff = {0};
    v4a_result *r = NULL;
    v4a_options tight;
    double t0;

    /* Every window matches all but the last line of the hunk, at every level. */
    put_repeat(&src, "    a = 1\n", n);
    buf_str(&diff, "@@\n");
    put_repeat(&diff, "  a  =  1\n", 300);
    buf_str(&diff, "-    b = 2\n+    c = 3\n");
    t0 = now();
    CHECK_STATUS(apply_n(src.ptr, src.len, diff.ptr, diff.len, NULL, &r),
                 V4A_STATUS_CONTEXT_NOT_FOUND);
    timed("near matches everywhere", t0, 60);
    v4a_result_free(r);
    /* The same with a tiny budget: the budget error, never a hang. */
    CHECK_STATUS(v4a_options_init(&tight), V4A_STATUS_OK);
    tight.search_budget = n / 2;
    t0 = now();
    CHECK_STATUS(apply_to(&src, "@@\n a = 1\n-a = 1\n+b\n", &tight, &r),
                 V4A_STATUS_SEARCH_BUDGET);
    timed("near matches everywhere, tight budget", t0, 30);
    v4a_result_free(r);
    release(&src);
    release(&diff);
}

int main(int argc, char **argv) {
    if (argc > 1) {
        scale = (size_t)strtoull(argv[1], NULL, 10);
        if (scale == 0) {
            fprintf(stderr, "usage: test_hostile [SCALE >= 1]\n");
            return 2;
        }
    }
    /* First, so that its memory peak is measured from a low base. */
    one_gigabyte_source();
    ten_million_short_lines();
    a_single_fifty_megabyte_line();
    ten_thousand_stacked_anchors();
    one_hundred_thousand_hunks();
    an_anchor_that_matches_every_line();
    a_hunk_equal_to_the_whole_file();
    every_unicode_space_and_dash_folds();
    invalid_utf8_at_every_position_class();
    nul_bytes_and_cr_only_files();
    end_patch_inside_hunk_bodies();
    patches_of_only_whitespace();
    repetitive_files_where_every_window_is_a_near_match();
    return check_report("test_hostile");
}
