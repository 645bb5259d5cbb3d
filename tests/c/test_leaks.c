/*
 * Leak check: every export of v4a.h, on its success and error paths, ITERATIONS times with
 * small inputs, run under valgrind memcheck with --leak-check=full (CTest label valgrind):
 * versions and names, options, single-file applies in every mode with every accessor read,
 * every diagnostic status, multi-file parse/apply/reverse (success, apply and parse
 * failures, bad source arrays), base-aware apply (single and multi-file: merges, conflicts,
 * bad bases), generation, normalisation, unified diffs, path classification, the
 * tool-calling kit, NULL arguments, accessors and frees of NULL, and the panic boundary.
 * Every call's status is checked, so each path is really taken.
 *
 * check_leak_coverage.cmake fails when an export declared in include/v4a.h is not called here.
 *
 * Usage: test_leaks [ITERATIONS]   (default 10000)
 */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "refine_cases.h"
#include "v4a.h"

/* Applies and checks the status and the handle; returns the result. */
static v4a_result *apply(const char *source, const char *diff, uint32_t mode,
                         const v4a_options *options, v4a_status want) {
    v4a_result *r = NULL;
    CHECK_STATUS(v4a_apply((const uint8_t *)source, source ? strlen(source) : 0,
                           (const uint8_t *)diff, diff ? strlen(diff) : 0, mode, options, &r),
                 want);
    CHECK(r != NULL && v4a_result_status(r) == want);
    return r;
}

/* Reads every view of a result, as a binding copying it out would. */
static void read_result(const v4a_result *r) {
    v4a_hunk_reports hunks = v4a_result_hunks(r);
    v4a_diff_lines lines = v4a_result_diff(r);
    v4a_segments segs = v4a_result_segments(r);
    v4a_changes changes = v4a_result_changes(r);
    const v4a_error *e = v4a_result_error(r);
    size_t i, sum = 0;
    CHECK((e == NULL) == (v4a_result_status(r) == V4A_STATUS_OK));
    CHECK(v4a_result_text(r).ptr != NULL && v4a_result_source(r).ptr != NULL);
    sum += v4a_result_path(r).len + v4a_result_destination(r).len + v4a_result_fuzz(r);
    for (i = 0; i < hunks.len; i++) {
        sum += hunks.ptr[i].line_levels.len + hunks.ptr[i].old_start;
    }
    for (i = 0; i < lines.len; i++) {
        CHECK(lines.ptr[i].text.ptr != NULL && lines.ptr[i].text.ptr[lines.ptr[i].text.len] == 0);
        CHECK(lines.ptr[i].segment_start + lines.ptr[i].segment_count <= segs.len);
    }
    for (i = 0; i < changes.len; i++) {
        sum += changes.ptr[i].old_len;
    }
    CHECK(sum < 1000000);
}

/* Reads every field of an error. */
static void read_error(const v4a_error *e, v4a_status want) {
    CHECK(e != NULL);
    if (e != NULL) {
        CHECK_STATUS(e->status, want);
        CHECK(e->message.ptr != NULL && e->message.len > 0 && e->message.ptr[e->message.len] == 0);
        CHECK(e->reserved == 0);
        CHECK(e->candidates.len == 0 || e->candidates.ptr != NULL);
        CHECK(e->path.len + e->input.len + e->suggestion.len + e->corrected_hunk.len < 100000);
    }
}

/* A failing single-file apply: the status, the error, every accessor, the unified diff
 * refused. */
static void apply_fails(const char *source, const char *diff, uint32_t mode,
                        const v4a_options *options, v4a_status want) {
    v4a_result *r = apply(source, diff, mode, options, want);
    v4a_text *t = NULL;
    read_error(v4a_result_error(r), want);
    read_result(r);
    CHECK_STATUS(v4a_result_unified_diff(r, 3, &t), V4A_STATUS_INVALID_ARGUMENT);
    CHECK(t != NULL && v4a_text_error(t) != NULL);
    v4a_text_free(t);
    v4a_result_free(r);
}

static void names_and_versions(void) {
    CHECK(strcmp(v4a_version(), V4A_VERSION) == 0);
    CHECK(v4a_abi_version() == V4A_ABI_VERSION);
    CHECK(strcmp(v4a_status_str(V4A_STATUS_AMBIGUOUS), "AMBIGUOUS") == 0);
    CHECK(strcmp(v4a_status_str(999), "UNKNOWN") == 0);
    CHECK(strcmp(v4a_status_category(V4A_STATUS_AMBIGUOUS), "ambiguous match") == 0);
    CHECK(strcmp(v4a_status_category(999), "unknown status") == 0);
    CHECK(strcmp(v4a_level_str(V4A_LEVEL_FOLD), "fold") == 0);
    CHECK(strcmp(v4a_level_str(9), "unknown") == 0);
}

static void options(void) {
    v4a_options o;
    v4a_generate_options g;
    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    CHECK_STATUS(v4a_options_init(NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(v4a_generate_options_init(&g), V4A_STATUS_OK);
    CHECK_STATUS(v4a_generate_options_init(NULL), V4A_STATUS_NULL_ARGUMENT);
}

static void single_file_success(void) {
    v4a_options o;
    v4a_result *r;
    v4a_text *t = NULL, *parts = NULL;
    v4a_bytes src, txt, path, dest;
    v4a_changes ch;
    v4a_unified_diff_input in = {{NULL, 0}, {NULL, 0}, {NULL, 0}, {NULL, 0}, {NULL, 0}, 1, 0};

    /* update, with a full refined diff: every view, the unified diff twice */
    v4a_options_init(&o);
    o.diff_style = V4A_DIFF_STYLE_FULL;
    o.refine = 1;
    r = apply("a\nlet x = 10;\nc\n", "@@\n a\n-let x = 10;\n+let x = 20;\n", V4A_MODE_UPDATE, &o,
              V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "a\nlet x = 20;\nc\n");
    CHECK(v4a_result_hunks(r).len == 1 && v4a_result_diff(r).len == 4);
    CHECK(v4a_result_segments(r).len > 0);
    read_result(r);
    CHECK_STATUS(v4a_result_unified_diff(r, 1, &t), V4A_STATUS_OK);
    CHECK(v4a_text_error(t) == NULL && v4a_text_status(t) == V4A_STATUS_OK);
    src = v4a_result_source(r);
    txt = v4a_result_text(r);
    path = v4a_result_path(r);
    dest = v4a_result_destination(r);
    ch = v4a_result_changes(r);
    in.source = src;
    in.text = txt;
    in.path = path;
    in.destination = dest;
    in.changes = ch;
    CHECK_STATUS(v4a_unified_diff(&in, &parts), V4A_STATUS_OK);
    CHECK(v4a_text_bytes(parts).len == v4a_text_bytes(t).len);
    v4a_text_free(parts);
    parts = NULL;
    in.changes.ptr = NULL;
    in.changes.len = 2;
    CHECK_STATUS(v4a_unified_diff(&in, &parts), V4A_STATUS_NULL_ARGUMENT);
    CHECK(parts != NULL && v4a_text_error(parts) != NULL);
    v4a_text_free(parts);
    parts = NULL;
    in.source.ptr = (const uint8_t *)"\xFF";
    in.source.len = 1;
    in.changes.len = 0;
    CHECK_STATUS(v4a_unified_diff(&in, &parts), V4A_STATUS_INVALID_UTF8);
    v4a_text_free(parts);
    parts = NULL;
    CHECK_STATUS(v4a_unified_diff(NULL, &parts), V4A_STATUS_NULL_ARGUMENT);
    v4a_text_free(parts);
    CHECK_STATUS(v4a_unified_diff(&in, NULL), V4A_STATUS_NULL_ARGUMENT);
    v4a_text_free(t);
    v4a_result_free(r);

    /* changed lines only; a re-indented, already-applied and end-of-file hunk */
    o.diff_style = V4A_DIFF_STYLE_CHANGES;
    o.refine = 0;
    r = apply("def f():\n\tif x:\n\t\treturn 1\n", "@@\n     if x:\n-        return 1\n"
              "+        return 2\n", V4A_MODE_UPDATE, &o, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "def f():\n\tif x:\n\t\treturn 2\n");
    read_result(r);
    v4a_result_free(r);
    r = apply("a\nb2\n", "@@\n a\n-b\n+b2\n", V4A_MODE_UPDATE, NULL, V4A_STATUS_OK);
    read_result(r);
    v4a_result_free(r);
    v4a_options_init(&o);
    o.first_match = 1;
    o.ensure_final_newline = 1;
    r = apply("x\ny\nx", "@@\n-x\n+z\n", V4A_MODE_UPDATE, &o, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "z\ny\nx\n");
    read_result(r);
    v4a_result_free(r);
    r = apply("\xEF\xBB\xBF" "a\r\nb", "@@\n+c\n", V4A_MODE_UPDATE, NULL, V4A_STATUS_OK);
    read_result(r);
    v4a_result_free(r);

    /* create (CRLF), delete, move, and the modes by name */
    v4a_options_init(&o);
    o.add_file_line_ending = V4A_LINE_ENDING_CRLF;
    r = apply(NULL, "*** Begin Patch\n*** Add File: x.txt\n+one\n*** End Patch\n", V4A_MODE_CREATE,
              &o, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "one\r\n");
    CHECK_VIEW(v4a_result_path(r), "x.txt");
    read_result(r);
    v4a_result_free(r);
    r = apply("a\nb\n", NULL, V4A_MODE_DELETE, NULL, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "");
    read_result(r);
    v4a_result_free(r);
    r = apply("a\nb\n", "*** Begin Patch\n*** Update File: o.txt\n*** Move to: n.txt\n@@\n a\n-b\n"
              "+c\n*** End Patch\n", V4A_MODE_MOVE, NULL, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_destination(r), "n.txt");
    read_result(r);
    v4a_result_free(r);
    r = NULL;
    CHECK_STATUS(v4a_apply_mode_name(LIT("a\n"), LIT("@@\n-a\n+b\n"), LIT("update"), NULL, &r),
                 V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "b\n");
    v4a_result_free(r);
    r = NULL;
    CHECK_STATUS(v4a_apply_mode_name(LIT("a\n"), LIT("@@\n-a\n+b\n"), LIT("rename"), NULL, &r),
                 V4A_STATUS_UNSUPPORTED_MODE);
    read_error(v4a_result_error(r), V4A_STATUS_UNSUPPORTED_MODE);
    v4a_result_free(r);
    r = NULL;
    CHECK_STATUS(v4a_apply_mode_name(LIT("a\n"), LIT("@@\n-a\n+b\n"), NULL, 6, NULL, &r),
                 V4A_STATUS_NULL_ARGUMENT);
    v4a_result_free(r);
    r = NULL;
    CHECK_STATUS(v4a_apply_mode_name(LIT("a\n"), LIT("@@\n-a\n+b\n"), LIT("\xFF"), NULL, &r),
                 V4A_STATUS_INVALID_UTF8);
    v4a_result_free(r);
    CHECK_STATUS(v4a_apply_mode_name(LIT("a\n"), LIT("@@\n-a\n+b\n"), LIT("update"), NULL, NULL),
                 V4A_STATUS_NULL_ARGUMENT);
}

static void single_file_failures(void) {
    static const uint8_t bad_source[] = {'a', '\n', 0xC3, 0x28, '\n'};
    static const uint8_t bad_patch[] = {'@', '@', '\n', '-', 'a', '\n', '+', 0xFF, '\n'};
    v4a_options o;
    v4a_result *r = NULL;

    apply_fails("x = 1\ny = 2\n", "@@\n-x = 3\n+x = 4\n", V4A_MODE_UPDATE, NULL,
                V4A_STATUS_CONTEXT_NOT_FOUND);
    apply_fails("f\n x\nf\n x\n", "@@\n- x\n+ y\n", V4A_MODE_UPDATE, NULL, V4A_STATUS_AMBIGUOUS);
    apply_fails("a\nb\n", "@@ class Missing\n-a\n+b\n", V4A_MODE_UPDATE, NULL,
                V4A_STATUS_ANCHOR_NOT_FOUND);
    apply_fails("a\n", "@@\n a\nxb\n", V4A_MODE_UPDATE, NULL, V4A_STATUS_PATCH_SYNTAX);
    apply_fails("a\n", "*** Begin Patch\n*** Update File: a\n@@\n-a\n+b\n", V4A_MODE_UPDATE, NULL,
                V4A_STATUS_TRUNCATED_PATCH);
    apply_fails("a\nb\nc\n", "@@\n a\n-b\n+x\n@@\n-b\n+y\n", V4A_MODE_UPDATE, NULL,
                V4A_STATUS_OVERLAPPING_HUNKS);
    apply_fails("a\n", "@@\n-a\n+b\n", 4, NULL, V4A_STATUS_UNSUPPORTED_MODE);
    apply_fails("a\n", "*** Begin Patch\n*** Add File: a\n+x\n*** Add File: b\n+y\n*** End Patch\n",
                V4A_MODE_CREATE, NULL, V4A_STATUS_INVALID_ARGUMENT);
    v4a_options_init(&o);
    o.already_applied_is_error = 1;
    apply_fails("a\nb2\n", "@@\n a\n-b\n+b2\n", V4A_MODE_UPDATE, &o, V4A_STATUS_ALREADY_APPLIED);
    v4a_options_init(&o);
    o.max_fuzz = 0;
    apply_fails("a \n", "@@\n-a\n+b\n", V4A_MODE_UPDATE, &o, V4A_STATUS_FUZZ_LIMIT);
    v4a_options_init(&o);
    o.search_budget = 1;
    apply_fails("a\nb\nc\nd\n", "@@\n c\n-d\n+e\n", V4A_MODE_UPDATE, &o, V4A_STATUS_SEARCH_BUDGET);
    v4a_options_init(&o);
    o.max_level = 7;
    apply_fails("a\n", "@@\n-a\n+b\n", V4A_MODE_UPDATE, &o, V4A_STATUS_INVALID_ARGUMENT);
    v4a_options_init(&o);
    o.struct_size = 3;
    apply_fails("a\n", "@@\n-a\n+b\n", V4A_MODE_UPDATE, &o, V4A_STATUS_INVALID_ARGUMENT);

    /* invalid UTF-8 in the source and in the patch */
    CHECK_STATUS(v4a_apply(bad_source, sizeof bad_source, LIT("@@\n-a\n+b\n"), V4A_MODE_UPDATE,
                           NULL, &r),
                 V4A_STATUS_INVALID_UTF8);
    read_error(v4a_result_error(r), V4A_STATUS_INVALID_UTF8);
    CHECK(v4a_result_error(r) != NULL && v4a_result_error(r)->byte_offset == 2);
    v4a_result_free(r);
    r = NULL;
    CHECK_STATUS(v4a_apply(LIT("a\n"), bad_patch, sizeof bad_patch, V4A_MODE_UPDATE, NULL, &r),
                 V4A_STATUS_INVALID_UTF8);
    v4a_result_free(r);

    /* NULL with a length (a handle with the message), and a NULL out-pointer */
    r = NULL;
    CHECK_STATUS(v4a_apply(NULL, 5, LIT("@@\n-a\n+b\n"), V4A_MODE_UPDATE, NULL, &r),
                 V4A_STATUS_NULL_ARGUMENT);
    read_error(v4a_result_error(r), V4A_STATUS_NULL_ARGUMENT);
    v4a_result_free(r);
    r = NULL;
    CHECK_STATUS(v4a_apply(LIT("a\n"), NULL, 1, V4A_MODE_UPDATE, NULL, &r),
                 V4A_STATUS_NULL_ARGUMENT);
    v4a_result_free(r);
    CHECK_STATUS(v4a_apply(LIT("a\n"), LIT("@@\n-a\n+b\n"), V4A_MODE_UPDATE, NULL, NULL),
                 V4A_STATUS_NULL_ARGUMENT);
}

/* A multi-file apply that fails: the set's error and its empty views. */
static void patch_apply_fails(const v4a_patch *p, const v4a_source *sources, size_t n,
                              const v4a_options *o, v4a_status want) {
    v4a_result_set *set = NULL;
    CHECK_STATUS(v4a_patch_apply(p, sources, n, o, &set), want);
    CHECK(set != NULL && v4a_result_set_status(set) == want);
    read_error(v4a_result_set_error(set), want);
    CHECK(v4a_result_set_files(set).len == 0);
    CHECK(v4a_result_set_summary(set).len == 0);
    v4a_result_set_free(set);
}

static void multi_file(void) {
    v4a_patch *p = NULL;
    v4a_result_set *set = NULL;
    v4a_source sources[4];
    v4a_file_results files;
    v4a_ops ops;
    v4a_text *t = NULL;
    v4a_options o;
    size_t i;

    CHECK_STATUS(v4a_patch_parse(LIT(MULTI_PATCH), &p), V4A_STATUS_OK);
    CHECK_STATUS(v4a_patch_status(p), V4A_STATUS_OK);
    CHECK(v4a_patch_error(p) == NULL);
    ops = v4a_patch_ops(p);
    CHECK(ops.len == 4);
    for (i = 0; i < ops.len; i++) {
        CHECK(ops.ptr[i].path.ptr != NULL && ops.ptr[i].reserved == 0);
    }
    multi_sources(sources);

    /* success, with a full diff: every file result read */
    v4a_options_init(&o);
    o.diff_style = V4A_DIFF_STYLE_FULL;
    o.refine = 1;
    CHECK_STATUS(v4a_patch_apply(p, sources, 4, &o, &set), V4A_STATUS_OK);
    CHECK_STATUS(v4a_result_set_status(set), V4A_STATUS_OK);
    CHECK(v4a_result_set_error(set) == NULL);
    CHECK_VIEW(v4a_result_set_summary(set), "Success. Updated the following files:\n"
                                            "A docs/new.md\nM src/main.py\nD old.txt\n"
                                            "M ../escape.txt\n");
    files = v4a_result_set_files(set);
    CHECK(files.len == 4);
    for (i = 0; i < files.len; i++) {
        v4a_text *u = NULL;
        read_result(files.ptr[i].result);
        CHECK(files.ptr[i].path.ptr != NULL);
        CHECK_STATUS(v4a_result_unified_diff(files.ptr[i].result, 3, &u), V4A_STATUS_OK);
        v4a_text_free(u);
    }
    v4a_result_set_free(set);
    set = NULL;

    /* the reverse, and the reverse of a patch that does not apply */
    CHECK_STATUS(v4a_patch_reverse(p, sources, 4, NULL, &t), V4A_STATUS_OK);
    CHECK(v4a_text_bytes(t).len > 0 && v4a_text_error(t) == NULL);
    v4a_text_free(t);
    t = NULL;

    /* failures: not found, a missing source, bad source arrays, invalid UTF-8 */
    sources[3].ptr = (const uint8_t *)"zzz\n";
    sources[3].len = 4;
    patch_apply_fails(p, sources, 4, NULL, V4A_STATUS_CONTEXT_NOT_FOUND);
    CHECK_STATUS(v4a_patch_reverse(p, sources, 4, NULL, &t), V4A_STATUS_CONTEXT_NOT_FOUND);
    read_error(v4a_text_error(t), V4A_STATUS_CONTEXT_NOT_FOUND);
    CHECK_VIEW(v4a_text_bytes(t), "");
    v4a_text_free(t);
    t = NULL;
    sources[3].ptr = (const uint8_t *)"a\n";
    sources[3].len = 2;
    sources[2].present = 0;
    patch_apply_fails(p, sources, 4, NULL, V4A_STATUS_MISSING_SOURCE);
    sources[2].present = 2;
    patch_apply_fails(p, sources, 4, NULL, V4A_STATUS_INVALID_ARGUMENT);
    sources[2].present = 1;
    patch_apply_fails(p, sources, 3, NULL, V4A_STATUS_INVALID_ARGUMENT);
    patch_apply_fails(p, NULL, 4, NULL, V4A_STATUS_NULL_ARGUMENT);
    sources[1].ptr = (const uint8_t *)"x\xFF\n";
    sources[1].len = 3;
    patch_apply_fails(p, sources, 4, NULL, V4A_STATUS_INVALID_UTF8);
    o.diff_style = 9;
    patch_apply_fails(p, sources, 4, &o, V4A_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(v4a_patch_reverse(p, sources, 3, NULL, &t), V4A_STATUS_INVALID_ARGUMENT);
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_patch_apply(p, sources, 4, NULL, NULL), V4A_STATUS_NULL_ARGUMENT);
    v4a_patch_free(p);
    p = NULL;

    /* parse failures: syntax, duplicate path, truncated; applying and reversing them */
    CHECK_STATUS(v4a_patch_parse(LIT("*** Begin Patch\n*** Frobnicate File: x\n*** End Patch\n"),
                                 &p),
                 V4A_STATUS_PATCH_SYNTAX);
    CHECK_STATUS(v4a_patch_status(p), V4A_STATUS_PATCH_SYNTAX);
    read_error(v4a_patch_error(p), V4A_STATUS_PATCH_SYNTAX);
    CHECK(v4a_patch_ops(p).len == 0);
    patch_apply_fails(p, NULL, 0, NULL, V4A_STATUS_PATCH_SYNTAX);
    CHECK_STATUS(v4a_patch_reverse(p, NULL, 0, NULL, &t), V4A_STATUS_PATCH_SYNTAX);
    v4a_text_free(t);
    t = NULL;
    v4a_patch_free(p);
    p = NULL;
    CHECK_STATUS(v4a_patch_parse(LIT("*** Begin Patch\n*** Delete File: a\n*** Delete File: a\n"
                                     "*** End Patch\n"),
                                 &p),
                 V4A_STATUS_DUPLICATE_PATH);
    read_error(v4a_patch_error(p), V4A_STATUS_DUPLICATE_PATH);
    v4a_patch_free(p);
    p = NULL;
    CHECK_STATUS(v4a_patch_parse(LIT("*** Begin Patch\n*** Delete File: a\n"), &p),
                 V4A_STATUS_TRUNCATED_PATCH);
    v4a_patch_free(p);
    p = NULL;
    CHECK_STATUS(v4a_patch_parse(LIT("*** Begin Patch\n\xFF\n*** End Patch\n"), &p),
                 V4A_STATUS_INVALID_UTF8);
    v4a_patch_free(p);
    p = NULL;
    CHECK_STATUS(v4a_patch_parse(NULL, 3, &p), V4A_STATUS_NULL_ARGUMENT);
    v4a_patch_free(p);
    p = NULL;
    CHECK_STATUS(v4a_patch_parse(LIT("@@\n-a\n+b\n"), NULL), V4A_STATUS_NULL_ARGUMENT);

    /* the strict parser: the canonical form, and a wrapper it refuses */
    CHECK_STATUS(v4a_patch_parse_strict(LIT("*** Begin Patch\n*** Delete File: a\n*** End Patch\n"),
                                        &p),
                 V4A_STATUS_OK);
    v4a_patch_free(p);
    p = NULL;
    CHECK(v4a_patch_parse_strict(LIT("```\n*** Begin Patch\n*** Delete File: a\n*** End Patch\n"
                                     "```\n"),
                                 &p) != V4A_STATUS_OK);
    CHECK(p != NULL && v4a_patch_error(p) != NULL);
    v4a_patch_free(p);
    p = NULL;
    CHECK_STATUS(v4a_patch_parse_strict(LIT("@@\n-a\n+b\n"), NULL), V4A_STATUS_NULL_ARGUMENT);

    /* a patch without operations is an error (an empty patch), with its handle */
    CHECK_STATUS(v4a_patch_parse(LIT("*** Begin Patch\n*** End Patch\n"), &p),
                 V4A_STATUS_PATCH_SYNTAX);
    CHECK(p != NULL && v4a_patch_error(p) != NULL);
    v4a_patch_free(p);
    p = NULL;

    /* NULL patches */
    CHECK_STATUS(v4a_patch_apply(NULL, NULL, 0, NULL, &set), V4A_STATUS_NULL_ARGUMENT);
    read_error(v4a_result_set_error(set), V4A_STATUS_NULL_ARGUMENT);
    v4a_result_set_free(set);
    CHECK_STATUS(v4a_patch_reverse(NULL, NULL, 0, NULL, &t), V4A_STATUS_NULL_ARGUMENT);
    CHECK(t != NULL && v4a_text_error(t) != NULL);
    v4a_text_free(t);
    CHECK_STATUS(v4a_patch_reverse(NULL, NULL, 0, NULL, NULL), V4A_STATUS_NULL_ARGUMENT);
}

/* Base-aware apply, single and multi-file: a merge with every view read, a conflict, bad
 * bases, NULL arguments. */
static void base_aware(void) {
    static const uint8_t bad_base[] = {'x', 0xFF, '\n'};
    static const char base[] = "def f():\n    x = 1\n    return x\n";
    static const char drifted[] = "import os\ndef f():\n    x = 1\n    return x\n";
    static const char conflicting[] = "def f():\n    x = 10\n    return x\n";
    static const char diff[] = "@@ def f():\n-    x = 1\n+    x = 2\n";
    static const char patch_text[] = "*** Begin Patch\n*** Update File: a.py\n"
                                     "@@ def f():\n-    x = 1\n+    x = 2\n"
                                     "*** Add File: n.txt\n+n\n*** End Patch\n";
    v4a_options o;
    v4a_result *r = NULL;
    v4a_text *t = NULL;
    v4a_patch *p = NULL;
    v4a_result_set *set = NULL;
    v4a_source sources[2], bases[2];
    v4a_file_results files;
    size_t i;

    v4a_options_init(&o);
    o.diff_style = V4A_DIFF_STYLE_FULL;
    o.refine = 1;
    CHECK_STATUS(v4a_apply_with_base(LIT(drifted), LIT(base), LIT(diff), V4A_MODE_UPDATE, &o, &r),
                 V4A_STATUS_OK);
    CHECK(v4a_result_hunks(r).len == 1 && v4a_result_hunks(r).ptr[0].flags == V4A_HUNK_MERGED);
    read_result(r);
    CHECK_STATUS(v4a_result_unified_diff(r, 3, &t), V4A_STATUS_OK);
    v4a_text_free(t);
    t = NULL;
    v4a_result_free(r);
    r = NULL;
    CHECK_STATUS(v4a_apply_with_base(LIT(conflicting), LIT(base), LIT(diff), V4A_MODE_UPDATE, &o,
                                     &r),
                 V4A_STATUS_CONFLICT);
    read_error(v4a_result_error(r), V4A_STATUS_CONFLICT);
    read_result(r);
    v4a_result_free(r);
    r = NULL;
    CHECK_STATUS(v4a_apply_with_base(LIT(drifted), bad_base, sizeof bad_base, LIT(diff),
                                     V4A_MODE_UPDATE, NULL, &r),
                 V4A_STATUS_INVALID_UTF8);
    read_error(v4a_result_error(r), V4A_STATUS_INVALID_UTF8);
    v4a_result_free(r);
    r = NULL;
    CHECK_STATUS(v4a_apply_with_base(LIT(drifted), NULL, 4, LIT(diff), V4A_MODE_UPDATE, NULL, &r),
                 V4A_STATUS_NULL_ARGUMENT);
    read_error(v4a_result_error(r), V4A_STATUS_NULL_ARGUMENT);
    v4a_result_free(r);
    CHECK_STATUS(v4a_apply_with_base(LIT(drifted), LIT(base), LIT(diff), V4A_MODE_UPDATE, NULL,
                                     NULL),
                 V4A_STATUS_NULL_ARGUMENT);

    CHECK_STATUS(v4a_patch_parse(LIT(patch_text), &p), V4A_STATUS_OK);
    memset(sources, 0, sizeof sources);
    memset(bases, 0, sizeof bases);
    sources[0].ptr = (const uint8_t *)drifted;
    sources[0].len = sizeof drifted - 1;
    sources[0].present = 1;
    bases[0].ptr = (const uint8_t *)base;
    bases[0].len = sizeof base - 1;
    bases[0].present = 1;
    CHECK_STATUS(v4a_patch_apply_with_bases(p, sources, 2, bases, 2, &o, &set), V4A_STATUS_OK);
    files = v4a_result_set_files(set);
    CHECK(files.len == 2);
    for (i = 0; i < files.len; i++) {
        read_result(files.ptr[i].result);
    }
    CHECK(v4a_result_set_summary(set).len > 0);
    v4a_result_set_free(set);
    set = NULL;
    sources[0].ptr = (const uint8_t *)conflicting;
    sources[0].len = sizeof conflicting - 1;
    CHECK_STATUS(v4a_patch_apply_with_bases(p, sources, 2, bases, 2, NULL, &set),
                 V4A_STATUS_CONFLICT);
    read_error(v4a_result_set_error(set), V4A_STATUS_CONFLICT);
    v4a_result_set_free(set);
    set = NULL;
    bases[0].ptr = bad_base;
    bases[0].len = sizeof bad_base;
    CHECK_STATUS(v4a_patch_apply_with_bases(p, sources, 2, bases, 2, NULL, &set),
                 V4A_STATUS_INVALID_UTF8);
    read_error(v4a_result_set_error(set), V4A_STATUS_INVALID_UTF8);
    v4a_result_set_free(set);
    set = NULL;
    CHECK_STATUS(v4a_patch_apply_with_bases(p, sources, 2, bases, 1, NULL, &set),
                 V4A_STATUS_INVALID_ARGUMENT);
    read_error(v4a_result_set_error(set), V4A_STATUS_INVALID_ARGUMENT);
    v4a_result_set_free(set);
    set = NULL;
    CHECK_STATUS(v4a_patch_apply_with_bases(p, sources, 2, NULL, 2, NULL, &set),
                 V4A_STATUS_NULL_ARGUMENT);
    read_error(v4a_result_set_error(set), V4A_STATUS_NULL_ARGUMENT);
    v4a_result_set_free(set);
    set = NULL;
    CHECK_STATUS(v4a_patch_apply_with_bases(p, sources, 2, bases, 2, NULL, NULL),
                 V4A_STATUS_NULL_ARGUMENT);
    v4a_patch_free(p);
    CHECK_STATUS(v4a_patch_apply_with_bases(NULL, NULL, 0, NULL, 0, NULL, &set),
                 V4A_STATUS_NULL_ARGUMENT);
    read_error(v4a_result_set_error(set), V4A_STATUS_NULL_ARGUMENT);
    v4a_result_set_free(set);
}

static void generation(void) {
    v4a_generate_options g;
    v4a_text *t = NULL;
    uint32_t level;

    v4a_generate_options_init(&g);
    g.context = 1;
    CHECK_STATUS(v4a_make_patch(LIT("a\nb\nc\n"), LIT("a\nB\nc\n"), LIT("f"), &g, &t),
                 V4A_STATUS_OK);
    CHECK_VIEW(v4a_text_bytes(t), "*** Begin Patch\n*** Update File: f\n@@\n a\n-b\n+B\n c\n"
                                  "*** End Patch\n");
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_make_patch(LIT("a\n"), LIT("a\r\n"), LIT("f"), NULL, &t),
                 V4A_STATUS_INVALID_ARGUMENT);
    read_error(v4a_text_error(t), V4A_STATUS_INVALID_ARGUMENT);
    v4a_text_free(t);
    t = NULL;
    g.struct_size = 2;
    CHECK_STATUS(v4a_make_patch(LIT("a\n"), LIT("b\n"), LIT("f"), &g, &t),
                 V4A_STATUS_INVALID_ARGUMENT);
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_make_patch(LIT("\xFF"), LIT("b\n"), LIT("f"), NULL, &t),
                 V4A_STATUS_INVALID_UTF8);
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_make_patch(NULL, 1, LIT("b"), LIT("f"), NULL, &t), V4A_STATUS_NULL_ARGUMENT);
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_make_patch(LIT("a"), LIT("b"), LIT("f"), NULL, NULL),
                 V4A_STATUS_NULL_ARGUMENT);

    CHECK_STATUS(v4a_make_move_patch(LIT("a\n"), LIT("b\n"), LIT("x"), LIT("y"), NULL, &t),
                 V4A_STATUS_OK);
    CHECK_VIEW(v4a_text_bytes(t), "*** Begin Patch\n*** Update File: x\n*** Move to: y\n@@\n-a\n"
                                  "+b\n*** End Patch\n");
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_make_move_patch(LIT("a\n"), LIT("b\n"), LIT("x"), NULL, 4, NULL, &t),
                 V4A_STATUS_NULL_ARGUMENT);
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_make_move_patch(LIT("a"), LIT("b"), LIT("x"), LIT("y"), NULL, NULL),
                 V4A_STATUS_NULL_ARGUMENT);

    CHECK_STATUS(v4a_make_add_patch(LIT("n.txt"), LIT("x\ny"), &t), V4A_STATUS_OK);
    CHECK_VIEW(v4a_text_bytes(t), "*** Begin Patch\n*** Add File: n.txt\n+x\n+y\n"
                                  "\\ No newline at end of file\n*** End Patch\n");
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_make_add_patch(LIT("n.txt"), LIT("\xFF"), &t), V4A_STATUS_INVALID_UTF8);
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_make_add_patch(NULL, 3, LIT("b"), &t), V4A_STATUS_NULL_ARGUMENT);
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_make_add_patch(LIT("p"), LIT("b"), NULL), V4A_STATUS_NULL_ARGUMENT);

    CHECK_STATUS(v4a_make_delete_patch(LIT("gone.txt"), &t), V4A_STATUS_OK);
    CHECK_VIEW(v4a_text_bytes(t), "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n");
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_make_delete_patch(NULL, 2, &t), V4A_STATUS_NULL_ARGUMENT);
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_make_delete_patch(LIT("p"), NULL), V4A_STATUS_NULL_ARGUMENT);

    for (level = V4A_LEVEL_EXACT; level <= V4A_LEVEL_FOLD; level++) {
        CHECK_STATUS(v4a_normalize(LIT("  a \xE2\x80\x9C" "b\xE2\x80\x9D  c  "), level, &t),
                     V4A_STATUS_OK);
        CHECK(v4a_text_bytes(t).ptr != NULL);
        v4a_text_free(t);
        t = NULL;
    }
    CHECK_STATUS(v4a_normalize(LIT("a"), 5, &t), V4A_STATUS_INVALID_ARGUMENT);
    read_error(v4a_text_error(t), V4A_STATUS_INVALID_ARGUMENT);
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_normalize(LIT("\xFF"), V4A_LEVEL_FOLD, &t), V4A_STATUS_INVALID_UTF8);
    v4a_text_free(t);
    CHECK_STATUS(v4a_normalize(LIT("a"), V4A_LEVEL_FOLD, NULL), V4A_STATUS_NULL_ARGUMENT);
}

static void paths_and_tools(void) {
    uint32_t c = 99, f, s;
    v4a_bytes v;
    CHECK_STATUS(v4a_classify_path(LIT("src/a.rs"), &c), V4A_STATUS_OK);
    CHECK(c == V4A_PATH_RELATIVE);
    CHECK_STATUS(v4a_classify_path(LIT("/etc/passwd"), &c), V4A_STATUS_OK);
    CHECK(c == V4A_PATH_ABSOLUTE);
    CHECK_STATUS(v4a_classify_path(LIT("a/../../x"), &c), V4A_STATUS_OK);
    CHECK(c == V4A_PATH_PARENT_ESCAPE);
    CHECK_STATUS(v4a_classify_path(NULL, 0, &c), V4A_STATUS_OK);
    CHECK(c == V4A_PATH_EMPTY);
    CHECK_STATUS(v4a_classify_path(LIT("a\0b"), &c), V4A_STATUS_OK);
    CHECK(c == V4A_PATH_NUL);
    CHECK_STATUS(v4a_classify_path(LIT("C:\\x"), &c), V4A_STATUS_OK);
    CHECK(c == V4A_PATH_DRIVE_PREFIX);
    CHECK_STATUS(v4a_classify_path(LIT("\xFF"), &c), V4A_STATUS_INVALID_UTF8);
    CHECK_STATUS(v4a_classify_path(NULL, 3, &c), V4A_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(v4a_classify_path(LIT("a"), NULL), V4A_STATUS_NULL_ARGUMENT);

    for (f = V4A_FLAVOR_OPENAI_CHAT; f <= V4A_FLAVOR_OPENAI_RESPONSES; f++) {
        for (s = V4A_SHAPE_INPUT; s <= V4A_SHAPE_FILE; s++) {
            v = v4a_tool_schema(f, s);
            CHECK(v.ptr != NULL && v.ptr[0] == '{');
        }
    }
    CHECK_ABSENT(v4a_tool_schema(5, V4A_SHAPE_INPUT));
    CHECK_ABSENT(v4a_tool_schema(V4A_FLAVOR_MCP, 2));
    CHECK_CONTAINS(v4a_grammar(), "BEGIN_PATCH");
    CHECK_CONTAINS(v4a_file_grammar(), "start: operation");
    CHECK_CONTAINS(v4a_instructions(), "*** Begin Patch");
}

static void null_handles(void) {
    v4a_text *t = NULL;
    CHECK_STATUS(v4a_result_status(NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK(v4a_result_error(NULL) == NULL);
    CHECK_ABSENT(v4a_result_text(NULL));
    CHECK_ABSENT(v4a_result_source(NULL));
    CHECK_ABSENT(v4a_result_path(NULL));
    CHECK_ABSENT(v4a_result_destination(NULL));
    CHECK(v4a_result_fuzz(NULL) == 0);
    CHECK(v4a_result_hunks(NULL).len == 0 && v4a_result_diff(NULL).len == 0);
    CHECK(v4a_result_segments(NULL).len == 0 && v4a_result_changes(NULL).len == 0);
    CHECK_STATUS(v4a_result_unified_diff(NULL, 3, &t), V4A_STATUS_NULL_ARGUMENT);
    CHECK(t != NULL);
    v4a_text_free(t);
    CHECK_STATUS(v4a_result_unified_diff(NULL, 3, NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(v4a_patch_status(NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK(v4a_patch_error(NULL) == NULL && v4a_patch_ops(NULL).len == 0);
    CHECK_STATUS(v4a_result_set_status(NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK(v4a_result_set_error(NULL) == NULL && v4a_result_set_files(NULL).len == 0);
    CHECK_ABSENT(v4a_result_set_summary(NULL));
    CHECK_STATUS(v4a_text_status(NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK(v4a_text_error(NULL) == NULL);
    CHECK_ABSENT(v4a_text_bytes(NULL));
    v4a_result_free(NULL);
    v4a_result_set_free(NULL);
    v4a_patch_free(NULL);
    v4a_text_free(NULL);
}

/* The panic export, with stderr sent to /dev/null for the call (the panic message would
 * otherwise be printed ITERATIONS times). */
static void panic_boundary(int devnull) {
#ifdef V4A_TEST_PANIC
    int saved = dup(2);
    CHECK(saved >= 0 && devnull >= 0);
    if (saved >= 0 && devnull >= 0) {
        fflush(stderr);
        dup2(devnull, 2);
        CHECK_STATUS(v4a_test_panic(), V4A_STATUS_INTERNAL);
        dup2(saved, 2);
        close(saved);
    }
#else
    (void)devnull;
    fprintf(stderr, "test_leaks: built without V4A_TEST_PANIC; the panic export is not called\n");
    CHECK(0);
#endif
}

int main(int argc, char **argv) {
    long iterations = argc > 1 ? strtol(argv[1], NULL, 10) : 10000, i;
    int devnull = open("/dev/null", O_WRONLY);
    if (iterations < 1) {
        fprintf(stderr, "usage: %s [ITERATIONS]\n", argv[0]);
        return 2;
    }
    for (i = 0; i < iterations && check_failed_count == 0; i++) {
        names_and_versions();
        options();
        single_file_success();
        single_file_failures();
        multi_file();
        base_aware();
        generation();
        paths_and_tools();
        null_handles();
        panic_boundary(devnull);
        refine_cases();
        line_diff_cases();
    }
    close(devnull);
    printf("test_leaks: %ld iterations of every export's paths\n", i);
    return check_report("test_leaks");
}
