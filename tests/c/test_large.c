/*
 * Large inputs through the C API: a 100 MB source edited near both ends (the result's text
 * and original source views checked byte for byte), and deeply repetitive files, where the
 * search stays bounded: ambiguity is reported with its candidates, and a search budget turns
 * the same work into V4A_STATUS_SEARCH_BUDGET. Not run under valgrind (too slow there).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "v4a.h"

static double now(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#define LINE_LEN 50 /* "line 0000000: ...\n", 50 bytes with its newline */

static void write_line(char *at, unsigned n) {
    char tmp[64];
    int len = snprintf(tmp, sizeof tmp, "line %07u: filler text so that lines are long.", n);
    memset(at, '.', LINE_LEN - 1);
    memcpy(at, tmp, (size_t)len < LINE_LEN - 1 ? (size_t)len : LINE_LEN - 1);
    at[LINE_LEN - 1] = '\n';
}

static void test_100_mb_source(void) {
    const size_t lines = (100u * 1024u * 1024u) / LINE_LEN + 1; /* just over 100 MiB */
    const size_t size = lines * LINE_LEN;
    char *source = (char *)malloc(size);
    char first[LINE_LEN + 1], last[LINE_LEN + 1];
    char diff[1024];
    v4a_result *r = NULL;
    v4a_options o;
    v4a_bytes text, src;
    size_t i;
    double t0;
    int n;

    CHECK(source != NULL);
    if (source == NULL) {
        return;
    }
    for (i = 0; i < lines; i++) {
        write_line(source + i * LINE_LEN, (unsigned)i);
    }
    memcpy(first, source + 10 * LINE_LEN, LINE_LEN);
    first[LINE_LEN - 1] = 0;
    memcpy(last, source + (lines - 2) * LINE_LEN, LINE_LEN);
    last[LINE_LEN - 1] = 0;
    /* Two hunks: replace line 11, and the line before the last one (anchored on it). */
    n = snprintf(diff, sizeof diff, "@@\n-%s\n+the first change\n@@ %.12s\n-%s\n+the last change\n",
                 first, last, last);
    CHECK(n > 0 && (size_t)n < sizeof diff);

    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    o.diff_style = V4A_DIFF_STYLE_CHANGES;
    o.diff_context = 2;
    t0 = now();
    CHECK_STATUS(v4a_apply((const uint8_t *)source, size, (const uint8_t *)diff, (size_t)n,
                           V4A_MODE_UPDATE, &o, &r),
                 V4A_STATUS_OK);
    printf("test_large: applied 2 hunks to a %zu-byte source in %.2f s\n", size, now() - t0);

    text = v4a_result_text(r);
    src = v4a_result_source(r);
    CHECK(src.len == size && memcmp(src.ptr, source, size) == 0 && src.ptr[size] == 0);
    CHECK(text.len == size - 2 * (LINE_LEN - 1) + strlen("the first change") +
                          strlen("the last change"));
    CHECK(text.ptr != NULL && text.ptr[text.len] == 0);
    if (text.ptr != NULL && text.len > 20 * LINE_LEN) {
        size_t head = 10 * LINE_LEN;
        CHECK(memcmp(text.ptr, source, head) == 0);
        CHECK(memcmp(text.ptr + head, "the first change\n", 17) == 0);
        CHECK(memcmp(text.ptr + head + 17, source + head + LINE_LEN, LINE_LEN) == 0);
        CHECK(memcmp(text.ptr + text.len - LINE_LEN - 16, "the last change\n", 16) == 0);
        CHECK(memcmp(text.ptr + text.len - LINE_LEN, source + size - LINE_LEN, LINE_LEN) == 0);
    }
    CHECK(v4a_result_hunks(r).len == 2);
    if (v4a_result_hunks(r).len == 2) {
        CHECK(v4a_result_hunks(r).ptr[0].old_start == 11);
        CHECK(v4a_result_hunks(r).ptr[1].old_start == lines - 1);
    }
    /* changes only: each change with 2 context lines each side (the last line has only one
     * line after it), nothing else */
    CHECK(v4a_result_diff(r).len == (2 + 2 + 2) + (2 + 2 + 1));
    v4a_result_free(r);

    /* the same source, a hunk that is nowhere: a bounded, diagnosed failure */
    r = NULL;
    t0 = now();
    CHECK_STATUS(v4a_apply((const uint8_t *)source, size, LIT("@@\n-no such line\n+x\n"),
                           V4A_MODE_UPDATE, NULL, &r),
                 V4A_STATUS_CONTEXT_NOT_FOUND);
    printf("test_large: diagnosed a missing hunk in %.2f s\n", now() - t0);
    v4a_result_free(r);
    free(source);
}

/* `count` copies of `line` (with '\n'). */
static char *repeat(const char *line, size_t count, size_t *len_out) {
    size_t n = strlen(line), i;
    char *p = (char *)malloc(count * (n + 1) + 1);
    if (p == NULL) {
        return NULL;
    }
    for (i = 0; i < count; i++) {
        memcpy(p + i * (n + 1), line, n);
        p[i * (n + 1) + n] = '\n';
    }
    p[count * (n + 1)] = 0;
    *len_out = count * (n + 1);
    return p;
}

static void test_repetitive_files(void) {
    size_t file_len = 0, ctx_len = 0;
    char *file = repeat("    x = x + 1;", 1000000, &file_len);
    char *context = repeat("     x = x + 1;", 2000, &ctx_len); /* " " + line, 2000 times */
    char *diff;
    size_t diff_len;
    v4a_result *r = NULL;
    v4a_options o;
    const v4a_error *e;
    double t0;

    CHECK(file != NULL && context != NULL);
    if (file == NULL || context == NULL) {
        free(file);
        free(context);
        return;
    }
    diff = (char *)malloc(ctx_len + 64);
    CHECK(diff != NULL);
    if (diff == NULL) {
        free(file);
        free(context);
        return;
    }
    memcpy(diff, "@@\n", 3);
    memcpy(diff + 3, context, ctx_len);
    memcpy(diff + 3 + ctx_len, "-    x = x + 1;\n+    x = x + 2;\n", 32);
    diff_len = 3 + ctx_len + 32;

    /* default budget: the hunk fits a million places; v4a refuses to guess, quickly */
    t0 = now();
    CHECK_STATUS(v4a_apply((const uint8_t *)file, file_len, (const uint8_t *)diff, diff_len,
                           V4A_MODE_UPDATE, NULL, &r),
                 V4A_STATUS_AMBIGUOUS);
    printf("test_large: a 2001-line hunk in a 1,000,000-line repetitive file: %s in %.2f s\n",
           v4a_status_str(v4a_result_status(r)), now() - t0);
    e = v4a_result_error(r);
    CHECK(e != NULL && e->candidates.len >= 2 && e->candidates.ptr[0] == 1);
    v4a_result_free(r);

    /* a search budget: the same search is cut off with its own status */
    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    o.search_budget = 100000;
    r = NULL;
    t0 = now();
    CHECK_STATUS(v4a_apply((const uint8_t *)file, file_len, (const uint8_t *)diff, diff_len,
                           V4A_MODE_UPDATE, &o, &r),
                 V4A_STATUS_SEARCH_BUDGET);
    printf("test_large: the same with a budget of 100,000: %s in %.2f s\n",
           v4a_status_str(v4a_result_status(r)), now() - t0);
    e = v4a_result_error(r);
    CHECK(e != NULL && view_contains(e->message, "search budget of 100000"));
    v4a_result_free(r);

    /* first-match mode takes the first place, within the default budget */
    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    o.first_match = 1;
    r = NULL;
    CHECK_STATUS(v4a_apply((const uint8_t *)file, file_len, (const uint8_t *)diff, diff_len,
                           V4A_MODE_UPDATE, &o, &r),
                 V4A_STATUS_OK);
    CHECK(v4a_result_hunks(r).len == 1 && v4a_result_hunks(r).ptr[0].old_start == 1);
    CHECK(v4a_result_text(r).len == file_len);
    v4a_result_free(r);

    free(diff);
    free(context);
    free(file);
}

int main(void) {
    test_100_mb_source();
    test_repetitive_files();
    return check_report("test_large");
}
