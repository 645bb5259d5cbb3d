/*
 * The cases of the refinement call (v4a_refine_lines, v4a_refinement_*) and of the line diff
 * as columns (v4a_result_line_diff, v4a_line_diff_*), shared by test_refine.c (once, with
 * exact answers) and test_leaks.c (many times, under valgrind): success and error paths, every
 * accessor read, every handle freed.
 */
#ifndef V4A_TEST_REFINE_CASES_H
#define V4A_TEST_REFINE_CASES_H

#include <stdint.h>
#include <string.h>

#include "check.h"
#include "v4a.h"

static inline v4a_bytes refine_case_line(const char *s) {
    v4a_bytes b;
    b.ptr = (const uint8_t *)s;
    b.len = strlen(s);
    return b;
}

/* The text of `seg` within `line`, compared with `want`. */
static inline int refine_case_piece(const char *line, v4a_segment seg, uint32_t kind,
                                    const char *want) {
    return seg.kind == kind && seg.end - seg.start == strlen(want) &&
           memcmp(line + seg.start, want, strlen(want)) == 0;
}

/* v4a_refine_lines: pairs and segments in bytes and in UTF-16 units, and every refusal. */
static inline void refine_cases(void) {
    const char *del_text[] = {"let x = 1;", "fn main() {}"};
    const char *add_text[] = {"unrelated();", "let x = 22;"};
    v4a_bytes del[2], add[2], bad[1];
    v4a_refinement *r = NULL;
    v4a_line_pairs pairs;
    v4a_segments segs;
    v4a_options o;
    size_t i;
    for (i = 0; i < 2; i++) {
        del[i] = refine_case_line(del_text[i]);
        add[i] = refine_case_line(add_text[i]);
    }
    CHECK_STATUS(v4a_refine_lines(del, 2, add, 2, NULL, V4A_UNITS_BYTES, &r), V4A_STATUS_OK);
    CHECK(r != NULL && v4a_refinement_status(r) == V4A_STATUS_OK && v4a_refinement_error(r) == NULL);
    pairs = v4a_refinement_pairs(r);
    segs = v4a_refinement_segments(r);
    CHECK(pairs.len == 1);
    if (pairs.len == 1) {
        v4a_line_pair p = pairs.ptr[0];
        CHECK(p.deleted == 0 && p.added == 1);
        CHECK(p.deleted_segment_count == 3 && p.added_segment_count == 3);
        CHECK(p.added_segment_start + p.added_segment_count <= segs.len);
        if (p.added_segment_count == 3 && p.deleted_segment_count == 3) {
            CHECK(refine_case_piece(add_text[1], segs.ptr[p.added_segment_start], V4A_DIFF_EQUAL, "let x = "));
            CHECK(refine_case_piece(add_text[1], segs.ptr[p.added_segment_start + 1], V4A_DIFF_ADD, "22"));
            CHECK(refine_case_piece(del_text[0], segs.ptr[p.deleted_segment_start + 1], V4A_DIFF_DELETE, "1"));
        }
    }
    v4a_refinement_free(r);

    /* UTF-16: the deletion after "é 😀 " starts at unit 5 (é 1, 😀 2), byte 8. */
    {
        const char *a = "\xc3\xa9 \xf0\x9f\x98\x80 a", *b = "\xc3\xa9 \xf0\x9f\x98\x80 b";
        v4a_bytes da = refine_case_line(a), db = refine_case_line(b);
        uint32_t units[2] = {V4A_UNITS_BYTES, V4A_UNITS_UTF16};
        size_t want[2] = {8, 5};
        for (i = 0; i < 2; i++) {
            r = NULL;
            CHECK_STATUS(v4a_refine_lines(&da, 1, &db, 1, NULL, units[i], &r), V4A_STATUS_OK);
            pairs = v4a_refinement_pairs(r);
            segs = v4a_refinement_segments(r);
            CHECK(pairs.len == 1 && segs.len == 4);
            if (pairs.len == 1 && segs.len == 4) {
                CHECK(segs.ptr[pairs.ptr[0].deleted_segment_start + 1].start == want[i]);
            }
            v4a_refinement_free(r);
        }
    }

    /* Limits through the options: a zero cost refines nothing, without an error. */
    v4a_options_init(&o);
    o.refine_max_cost = 0;
    r = NULL;
    CHECK_STATUS(v4a_refine_lines(del, 2, add, 2, &o, V4A_UNITS_BYTES, &r), V4A_STATUS_OK);
    CHECK(v4a_refinement_pairs(r).len == 0 && v4a_refinement_segments(r).ptr == NULL);
    v4a_refinement_free(r);

    /* Empty blocks. */
    r = NULL;
    CHECK_STATUS(v4a_refine_lines(NULL, 0, NULL, 0, NULL, V4A_UNITS_BYTES, &r), V4A_STATUS_OK);
    CHECK(v4a_refinement_pairs(r).len == 0);
    v4a_refinement_free(r);

    /* Refusals: each stores a handle with the error. */
    bad[0].ptr = (const uint8_t *)"\xff";
    bad[0].len = 1;
    r = NULL;
    CHECK_STATUS(v4a_refine_lines(del, 2, bad, 1, NULL, V4A_UNITS_BYTES, &r), V4A_STATUS_INVALID_UTF8);
    CHECK(r != NULL && v4a_refinement_error(r) != NULL);
    if (r != NULL && v4a_refinement_error(r) != NULL) {
        const v4a_error *e = v4a_refinement_error(r);
        CHECK(strstr((const char *)e->message.ptr, "added[0]") != NULL);
    }
    CHECK(v4a_refinement_pairs(r).len == 0 && v4a_refinement_segments(r).len == 0);
    v4a_refinement_free(r);
    r = NULL;
    CHECK_STATUS(v4a_refine_lines(NULL, 3, add, 2, NULL, V4A_UNITS_BYTES, &r), V4A_STATUS_NULL_ARGUMENT);
    v4a_refinement_free(r);
    r = NULL;
    CHECK_STATUS(v4a_refine_lines(del, 2, add, 2, NULL, 7, &r), V4A_STATUS_INVALID_ARGUMENT);
    v4a_refinement_free(r);
    o.struct_size = 3;
    r = NULL;
    CHECK_STATUS(v4a_refine_lines(del, 2, add, 2, &o, V4A_UNITS_BYTES, &r), V4A_STATUS_INVALID_ARGUMENT);
    v4a_refinement_free(r);
    CHECK_STATUS(v4a_refine_lines(del, 2, add, 2, NULL, V4A_UNITS_BYTES, NULL), V4A_STATUS_NULL_ARGUMENT);

    /* NULL handles. */
    CHECK_STATUS(v4a_refinement_status(NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK(v4a_refinement_error(NULL) == NULL);
    CHECK(v4a_refinement_pairs(NULL).ptr == NULL && v4a_refinement_segments(NULL).ptr == NULL);
    v4a_refinement_free(NULL);
}

/* v4a_result_line_diff: the columns agree with v4a_result_diff, in bytes and UTF-16. */
static inline void line_diff_cases(void) {
    const char *source = "\xef\xbb\xbf" "a\r\n\xc3\xa9 x = 1\r\nc\r\n";
    const char *patch = "@@\n a\n-\xc3\xa9 x = 1\n+\xc3\xa9 x = 2\n c\n";
    v4a_options o;
    v4a_result *res = NULL, *failed = NULL;
    v4a_line_diff *d = NULL;
    v4a_diff_columns c;
    v4a_diff_lines rows;
    size_t i;
    v4a_options_init(&o);
    o.diff_style = V4A_DIFF_STYLE_FULL;
    o.refine = 1;
    CHECK_STATUS(v4a_apply((const uint8_t *)source, strlen(source), (const uint8_t *)patch,
                           strlen(patch), V4A_MODE_UPDATE, &o, &res),
                 V4A_STATUS_OK);
    rows = v4a_result_diff(res);
    CHECK_STATUS(v4a_result_line_diff(res, &o, V4A_UNITS_BYTES, &d), V4A_STATUS_OK);
    CHECK(v4a_line_diff_error(d) == NULL);
    c = v4a_line_diff_columns(d);
    CHECK(c.len == 4 && rows.len == 4);
    if (c.len == 4 && rows.len == 4) {
        v4a_bytes text = v4a_result_text(res), src = v4a_result_source(res);
        v4a_segments row_segs = v4a_result_segments(res);
        for (i = 0; i < c.len; i++) {
            const uint8_t *base = c.kinds[i] == V4A_DIFF_ADD ? text.ptr : src.ptr;
            v4a_diff_line row = rows.ptr[i];
            size_t k;
            CHECK(c.kinds[i] == row.kind && c.old_lines[i] == row.old_line);
            CHECK(c.new_lines[i] == row.new_line && c.hunks[i] == row.hunk);
            CHECK(c.ends[i] - c.starts[i] == row.text.len);
            CHECK(memcmp(base + c.starts[i], row.text.ptr, row.text.len) == 0);
            CHECK(c.segment_counts[i] == row.segment_count);
            for (k = 0; k < row.segment_count && k < c.segment_counts[i]; k++) {
                v4a_segment a = c.segments.ptr[c.segment_starts[i] + k];
                v4a_segment b = row_segs.ptr[row.segment_start + k];
                CHECK(a.kind == b.kind && a.start == b.start && a.end == b.end);
            }
        }
        /* Line 1 starts after the BOM (3 bytes); "2" starts at byte 7 of its line. */
        CHECK(c.starts[0] == 3 && c.kinds[2] == V4A_DIFF_ADD && c.segment_counts[2] == 2);
        CHECK(c.segment_counts[2] == 2 && c.segments.ptr[c.segment_starts[2] + 1].start == 7);
    }
    v4a_line_diff_free(d);

    /* UTF-16 units. */
    d = NULL;
    CHECK_STATUS(v4a_result_line_diff(res, &o, V4A_UNITS_UTF16, &d), V4A_STATUS_OK);
    c = v4a_line_diff_columns(d);
    CHECK(c.len == 4);
    if (c.len == 4 && c.segment_counts[2] == 2) {
        /* The BOM is one unit, "é" one: "é x = 1" is units 4..11, its "2" at unit 6. */
        CHECK(c.starts[0] == 1 && c.ends[0] == 2 && c.starts[1] == 4 && c.ends[1] == 11);
        CHECK(c.segments.ptr[c.segment_starts[2] + 1].start == 6);
    }
    v4a_line_diff_free(d);

    /* Another style than the apply's: changes only, no context; NULL options: no diff. */
    o.diff_style = V4A_DIFF_STYLE_CHANGES;
    o.diff_context = 0;
    o.refine = 0;
    d = NULL;
    CHECK_STATUS(v4a_result_line_diff(res, &o, V4A_UNITS_BYTES, &d), V4A_STATUS_OK);
    c = v4a_line_diff_columns(d);
    CHECK(c.len == 2 && c.segments.len == 0);
    v4a_line_diff_free(d);
    d = NULL;
    CHECK_STATUS(v4a_result_line_diff(res, NULL, V4A_UNITS_BYTES, &d), V4A_STATUS_OK);
    c = v4a_line_diff_columns(d);
    CHECK(c.len == 0 && c.kinds == NULL && c.starts == NULL);
    v4a_line_diff_free(d);

    /* Runs: each run of equal lines (here the 3 lines before the hunk, CRLF between them)
     * is one entry with its count; the others count 1. */
    {
        const char *runs_src = "a\r\nb\r\nc\r\nd\r\n";
        v4a_result *r = NULL;
        CHECK_STATUS(v4a_apply((const uint8_t *)runs_src, strlen(runs_src),
                               (const uint8_t *)"@@\n-d\n+D\n", 9, V4A_MODE_UPDATE, NULL, &r),
                     V4A_STATUS_OK);
        o.diff_style = V4A_DIFF_STYLE_RUNS;
        d = NULL;
        CHECK_STATUS(v4a_result_line_diff(r, &o, V4A_UNITS_BYTES, &d), V4A_STATUS_OK);
        c = v4a_line_diff_columns(d);
        CHECK(c.len == 3 && c.counts != NULL);
        if (c.len == 3) {
            CHECK(c.kinds[0] == V4A_DIFF_EQUAL && c.counts[0] == 3 && c.old_lines[0] == 1);
            CHECK(c.starts[0] == 0 && c.ends[0] == 7 && c.hunks[0] == 0);
            CHECK(c.counts[1] == 1 && c.counts[2] == 1 && c.kinds[2] == V4A_DIFF_ADD);
        }
        v4a_line_diff_free(d);
        /* The rows have no count: those of a full diff. */
        rows = v4a_result_diff(r);
        CHECK(rows.len == 0);
        v4a_result_free(r);
        o.diff_style = V4A_DIFF_STYLE_CHANGES;
    }

    /* Refusals. */
    d = NULL;
    CHECK_STATUS(v4a_result_line_diff(res, &o, 2, &d), V4A_STATUS_INVALID_ARGUMENT);
    CHECK(d != NULL && v4a_line_diff_error(d) != NULL && v4a_line_diff_columns(d).len == 0);
    v4a_line_diff_free(d);
    CHECK_STATUS(v4a_apply((const uint8_t *)"x\n", 2, (const uint8_t *)"@@\n-y\n+z\n", 9,
                           V4A_MODE_UPDATE, NULL, &failed),
                 V4A_STATUS_CONTEXT_NOT_FOUND);
    d = NULL;
    CHECK_STATUS(v4a_result_line_diff(failed, &o, V4A_UNITS_BYTES, &d), V4A_STATUS_INVALID_ARGUMENT);
    CHECK(d != NULL && v4a_line_diff_error(d) != NULL);
    v4a_line_diff_free(d);
    v4a_result_free(failed);
    d = NULL;
    CHECK_STATUS(v4a_result_line_diff(NULL, &o, V4A_UNITS_BYTES, &d), V4A_STATUS_NULL_ARGUMENT);
    CHECK(d == NULL);
    CHECK_STATUS(v4a_result_line_diff(res, &o, V4A_UNITS_BYTES, NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK(v4a_line_diff_error(NULL) == NULL && v4a_line_diff_columns(NULL).len == 0);
    v4a_line_diff_free(NULL);
    v4a_result_free(res);
}

#endif /* V4A_TEST_REFINE_CASES_H */
