/*
 * The C API, function by function: versions and statuses, options, single-file apply with
 * every accessor, diagnostics, multi-file patches, base-aware apply (single and multi-file),
 * refinement, generation round trips, the tool-calling kit, and bad inputs (NULL everywhere,
 * invalid UTF-8, out-of-range values, zero-length inputs, the panic export).
 *
 * The scenarios are the API_SECTIONS table (api_sections.h), which test_leaks also runs many
 * times over; built for it with V4A_API_NO_MAIN, this file has no main.
 */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api_sections.h"
#include "check.h"
#include "layout.h"
#include "refine_cases.h"
#include "v4a.h"

/* Applies and checks the status; returns the result (never NULL unless the status was
 * INTERNAL). */
static v4a_result *apply(const char *source, const char *diff, uint32_t mode,
                         const v4a_options *options, v4a_status want) {
    v4a_result *r = NULL;
    v4a_status s = v4a_apply((const uint8_t *)source, source ? strlen(source) : 0,
                             (const uint8_t *)diff, diff ? strlen(diff) : 0, mode, options, &r);
    CHECK_STATUS(s, want);
    CHECK(r != NULL);
    if (r != NULL) {
        CHECK_STATUS(v4a_result_status(r), want);
        CHECK((v4a_result_error(r) == NULL) == (want == V4A_STATUS_OK));
    }
    return r;
}

static const v4a_error *error_of(const v4a_result *r, v4a_status want) {
    const v4a_error *e = v4a_result_error(r);
    CHECK(e != NULL);
    if (e != NULL) {
        CHECK_STATUS(e->status, want);
        CHECK(e->message.ptr != NULL && e->message.len > 0);
        CHECK(e->message.ptr != NULL && e->message.ptr[e->message.len] == 0);
        CHECK(e->reserved == 0);
    }
    return e;
}

static v4a_options options_with_diff(uint32_t style, uint32_t context) {
    v4a_options o;
    memset(&o, 0xAB, sizeof o);
    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    o.diff_style = style;
    o.diff_context = context;
    return o;
}

/* ---------------------------------------------------------------------------------------- */

static void test_versions_and_statuses(void) {
    static const char *names[] = {
        "OK",           "INVALID_ARGUMENT",  "NULL_ARGUMENT",    "INVALID_UTF8",
        "PATCH_SYNTAX", "TRUNCATED_PATCH",   "UNSUPPORTED_MODE", "CONTEXT_NOT_FOUND",
        "ANCHOR_NOT_FOUND", "AMBIGUOUS",     "OVERLAPPING_HUNKS", "ALREADY_APPLIED",
        "FUZZ_LIMIT",   "SEARCH_BUDGET",     "MISSING_SOURCE",   "DUPLICATE_PATH",
        "INTERNAL",     "FILE_EXISTS",       "CONFLICT",         "CHANGED_ON_DISK",
        "UNSAFE_PATH",  "LOCKED",            "INCONSISTENT_INDENTATION", "IO_ERROR"};
    static const uint32_t codes[] = {
        V4A_STATUS_OK,             V4A_STATUS_INVALID_ARGUMENT, V4A_STATUS_NULL_ARGUMENT,
        V4A_STATUS_INVALID_UTF8,   V4A_STATUS_PATCH_SYNTAX,     V4A_STATUS_TRUNCATED_PATCH,
        V4A_STATUS_UNSUPPORTED_MODE, V4A_STATUS_CONTEXT_NOT_FOUND, V4A_STATUS_ANCHOR_NOT_FOUND,
        V4A_STATUS_AMBIGUOUS,      V4A_STATUS_OVERLAPPING_HUNKS, V4A_STATUS_ALREADY_APPLIED,
        V4A_STATUS_FUZZ_LIMIT,     V4A_STATUS_SEARCH_BUDGET,    V4A_STATUS_MISSING_SOURCE,
        V4A_STATUS_DUPLICATE_PATH, V4A_STATUS_INTERNAL,      V4A_STATUS_FILE_EXISTS,
        V4A_STATUS_CONFLICT,       V4A_STATUS_CHANGED_ON_DISK, V4A_STATUS_UNSAFE_PATH,
        V4A_STATUS_LOCKED,         V4A_STATUS_INCONSISTENT_INDENTATION, V4A_STATUS_IO_ERROR};
    size_t i;
    char version[32];

    CHECK(strcmp(v4a_version(), V4A_VERSION) == 0);
    snprintf(version, sizeof version, "%d.%d.%d", V4A_VERSION_MAJOR, V4A_VERSION_MINOR,
             V4A_VERSION_PATCH);
    CHECK(strcmp(version, V4A_VERSION) == 0);
    CHECK(v4a_abi_version() == V4A_ABI_VERSION);

    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        CHECK(codes[i] == i);
        CHECK(strcmp(v4a_status_str(codes[i]), names[i]) == 0);
        CHECK(v4a_status_category(codes[i]) != NULL && v4a_status_category(codes[i])[0] != 0);
    }
    CHECK(strcmp(v4a_status_category(V4A_STATUS_AMBIGUOUS), "ambiguous match") == 0);
    CHECK(strcmp(v4a_status_str(24), "UNKNOWN") == 0);
    CHECK(strcmp(v4a_status_str(UINT32_MAX), "UNKNOWN") == 0);
    CHECK(strcmp(v4a_status_category(999), "unknown status") == 0);
    CHECK(strcmp(v4a_level_str(V4A_LEVEL_EXACT), "exact") == 0);
    CHECK(strcmp(v4a_level_str(V4A_LEVEL_TRIM_END), "trim_end") == 0);
    CHECK(strcmp(v4a_level_str(V4A_LEVEL_TRIM), "trim") == 0);
    CHECK(strcmp(v4a_level_str(V4A_LEVEL_COLLAPSE), "collapse") == 0);
    CHECK(strcmp(v4a_level_str(V4A_LEVEL_FOLD), "fold") == 0);
    CHECK(strcmp(v4a_level_str(5), "unknown") == 0);
}

static void test_options_defaults(void) {
    v4a_options o;
    v4a_generate_options g;
    memset(&o, 0xFF, sizeof o);
    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    CHECK(o.struct_size == sizeof(v4a_options));
    CHECK(o.max_level == V4A_LEVEL_FOLD);
    CHECK(o.max_fuzz == V4A_NO_FUZZ_LIMIT);
    CHECK(o.first_match == 0);
    CHECK(o.already_applied_is_error == 0);
    CHECK(o.ensure_final_newline == 0);
    CHECK(o.add_file_line_ending == V4A_LINE_ENDING_LF);
    CHECK(o.diff_style == V4A_DIFF_STYLE_NONE);
    CHECK(o.diff_context == 3);
    CHECK(o.refine == 0);
    CHECK(o.search_budget == 200000000u);
    CHECK_STATUS(v4a_options_init(NULL), V4A_STATUS_NULL_ARGUMENT);

    memset(&g, 0xFF, sizeof g);
    CHECK_STATUS(v4a_generate_options_init(&g), V4A_STATUS_OK);
    CHECK(g.struct_size == sizeof(v4a_generate_options));
    CHECK(g.context == 3);
    CHECK(g.max_context == 50);
    CHECK_STATUS(v4a_generate_options_init(NULL), V4A_STATUS_NULL_ARGUMENT);
}

/* The static initializers hold the same values as the _init functions, field by field, and
 * the library takes them; a zeroed struct is refused. */
static const v4a_options static_options = V4A_OPTIONS_INIT;
static const v4a_generate_options static_generate_options = V4A_GENERATE_OPTIONS_INIT;

static void test_static_initializers(void) {
    v4a_options o, z;
    v4a_generate_options g;
    v4a_result *r = NULL;
    v4a_text *t = NULL;
    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    CHECK(static_options.struct_size == o.struct_size);
    CHECK(static_options.max_level == o.max_level);
    CHECK(static_options.max_fuzz == o.max_fuzz);
    CHECK(static_options.first_match == o.first_match);
    CHECK(static_options.already_applied_is_error == o.already_applied_is_error);
    CHECK(static_options.ensure_final_newline == o.ensure_final_newline);
    CHECK(static_options.add_file_line_ending == o.add_file_line_ending);
    CHECK(static_options.diff_style == o.diff_style);
    CHECK(static_options.diff_context == o.diff_context);
    CHECK(static_options.refine == o.refine);
    CHECK(static_options.search_budget == o.search_budget);
    CHECK(o.diff_context == V4A_DEFAULT_DIFF_CONTEXT);
    CHECK(o.search_budget == V4A_DEFAULT_SEARCH_BUDGET);
    CHECK_STATUS(v4a_generate_options_init(&g), V4A_STATUS_OK);
    CHECK(static_generate_options.struct_size == g.struct_size);
    CHECK(static_generate_options.context == g.context);
    CHECK(static_generate_options.max_context == g.max_context);
    CHECK(g.context == V4A_DEFAULT_GENERATE_CONTEXT);
    CHECK(g.max_context == V4A_DEFAULT_GENERATE_MAX_CONTEXT);

    /* Usable as they are, and as the start of a local struct. */
    {
        v4a_options local = V4A_OPTIONS_INIT;
        local.max_level = V4A_LEVEL_EXACT;
        r = apply("a\nb  \n", "@@\n a\n-b\n+c\n", V4A_MODE_UPDATE, &local,
                  V4A_STATUS_CONTEXT_NOT_FOUND);
        v4a_result_free(r);
    }
    r = apply("a\nb  \n", "@@\n a\n-b\n+c\n", V4A_MODE_UPDATE, &static_options, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "a\nc\n");
    v4a_result_free(r);
    CHECK_STATUS(v4a_make_patch(LIT("a\n"), LIT("b\n"), LIT("f"), &static_generate_options, &t),
                 V4A_STATUS_OK);
    v4a_text_free(t);

    /* A zeroed options struct has struct_size 0: refused, with the message naming the fix. */
    memset(&z, 0, sizeof z);
    r = apply("a\n", "@@\n-a\n+b\n", V4A_MODE_UPDATE, &z, V4A_STATUS_INVALID_ARGUMENT);
    {
        const v4a_error *e = v4a_result_error(r);
        CHECK(e != NULL && strstr((const char *)e->message.ptr, "v4a_options_init") != NULL);
    }
    v4a_result_free(r);
}

/* ---------------------------------------------------------------------------------------- */

static void test_apply_update_full_diff(void) {
    const char *source = "class App:\n    def run(self):\n        x = 1\n        y = 2\n"
                         "        return x + y\n";
    const char *diff = "@@ class App\n@@     def run(self):\n         x = 1\n-        y = 2\n"
                       "+        y = 3\n";
    v4a_options o = options_with_diff(V4A_DIFF_STYLE_FULL, 0);
    v4a_result *r = apply(source, diff, V4A_MODE_UPDATE, &o, V4A_STATUS_OK);
    v4a_hunk_reports hunks = v4a_result_hunks(r);
    v4a_diff_lines lines = v4a_result_diff(r);
    v4a_changes changes = v4a_result_changes(r);
    v4a_text *unified = NULL;

    CHECK_VIEW(v4a_result_text(r), "class App:\n    def run(self):\n        x = 1\n"
                                   "        y = 3\n        return x + y\n");
    CHECK_VIEW_STR(v4a_result_source(r), source);
    CHECK_ABSENT(v4a_result_path(r));
    CHECK_ABSENT(v4a_result_destination(r));
    CHECK(v4a_result_fuzz(r) == 0);

    CHECK(hunks.len == 1);
    if (hunks.len == 1) {
        const v4a_hunk_report *h = &hunks.ptr[0];
        CHECK(h->old_start == 3 && h->old_len == 2);
        CHECK(h->new_start == 3 && h->new_len == 2);
        CHECK(h->level == V4A_LEVEL_EXACT);
        CHECK(h->fuzz == 0);
        CHECK(h->candidates == 1);
        CHECK(h->flags == 0);
        CHECK(h->patch_line == 1);
        CHECK(h->reserved == 0);
        CHECK(h->line_levels.len == 2);
        CHECK(h->line_levels.len == 2 && h->line_levels.ptr[0] == V4A_LEVEL_EXACT &&
              h->line_levels.ptr[1] == V4A_LEVEL_EXACT);
    }

    /* Full diff: 4 equal lines, one delete, one add, in file order. */
    CHECK(lines.len == 6);
    if (lines.len == 6) {
        static const uint32_t kinds[] = {V4A_DIFF_EQUAL,  V4A_DIFF_EQUAL, V4A_DIFF_EQUAL,
                                         V4A_DIFF_DELETE, V4A_DIFF_ADD,   V4A_DIFF_EQUAL};
        static const uint32_t old_lines[] = {1, 2, 3, 4, 0, 5};
        static const uint32_t new_lines[] = {1, 2, 3, 0, 4, 5};
        static const uint32_t hunk_numbers[] = {0, 0, 1, 1, 1, 0};
        size_t i;
        for (i = 0; i < 6; i++) {
            CHECK(lines.ptr[i].kind == kinds[i]);
            CHECK(lines.ptr[i].old_line == old_lines[i]);
            CHECK(lines.ptr[i].new_line == new_lines[i]);
            CHECK(lines.ptr[i].hunk == hunk_numbers[i]);
            CHECK(lines.ptr[i].segment_count == 0);
            CHECK(lines.ptr[i].text.ptr[lines.ptr[i].text.len] == 0);
        }
        CHECK_VIEW(lines.ptr[0].text, "class App:");
        CHECK_VIEW(lines.ptr[3].text, "        y = 2");
        CHECK_VIEW(lines.ptr[4].text, "        y = 3");
        CHECK_VIEW(lines.ptr[5].text, "        return x + y");
    }
    CHECK(v4a_result_segments(r).len == 0 && v4a_result_segments(r).ptr == NULL);

    CHECK(changes.len == 1);
    if (changes.len == 1) {
        CHECK(changes.ptr[0].old_start == 4 && changes.ptr[0].old_len == 1);
        CHECK(changes.ptr[0].new_start == 4 && changes.ptr[0].new_len == 1);
        CHECK(changes.ptr[0].hunk == 1);
    }

    CHECK_STATUS(v4a_result_unified_diff(r, 1, &unified), V4A_STATUS_OK);
    CHECK_VIEW(v4a_text_bytes(unified), "--- a\n+++ b\n@@ -3,3 +3,3 @@\n         x = 1\n"
                                        "-        y = 2\n+        y = 3\n         return x + y\n");
    CHECK(v4a_text_error(unified) == NULL);
    CHECK_STATUS(v4a_text_status(unified), V4A_STATUS_OK);

    /* The same rendering from the parts a binding keeps after freeing the result. */
    {
        v4a_bytes src = v4a_result_source(r), txt = v4a_result_text(r);
        v4a_bytes path = v4a_result_path(r), dest = v4a_result_destination(r);
        v4a_changes ch = v4a_result_changes(r);
        v4a_text *parts = NULL;
        v4a_unified_diff_input in = {{NULL, 0}, {NULL, 0}, {NULL, 0}, {NULL, 0}, {NULL, 0}, 1, 0};
        in.source = src;
        in.text = txt;
        in.path = path;
        in.destination = dest;
        in.changes = ch;
        CHECK_STATUS(v4a_unified_diff(&in, &parts), V4A_STATUS_OK);
        v4a_bytes a = v4a_text_bytes(unified), b = v4a_text_bytes(parts);
        CHECK(a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0);
        v4a_text_free(parts);
        /* A NULL change array with a length is refused, with a text holding the error. */
        in.path.ptr = in.destination.ptr = NULL;
        in.path.len = in.destination.len = 0;
        in.changes.ptr = NULL;
        in.changes.len = 2;
        CHECK_STATUS(v4a_unified_diff(&in, &parts), V4A_STATUS_NULL_ARGUMENT);
        CHECK(parts != NULL && v4a_text_error(parts) != NULL);
        v4a_text_free(parts);
        /* A reserved field that is not 0, and a NULL input, are refused too. */
        in.changes = ch;
        in.reserved = 1;
        CHECK_STATUS(v4a_unified_diff(&in, &parts), V4A_STATUS_INVALID_ARGUMENT);
        CHECK(parts != NULL && v4a_text_error(parts) != NULL);
        v4a_text_free(parts);
        in.reserved = 0;
        CHECK_STATUS(v4a_unified_diff(NULL, &parts), V4A_STATUS_NULL_ARGUMENT);
        CHECK(parts != NULL && v4a_text_error(parts) != NULL);
        v4a_text_free(parts);
        /* An edit script the texts cannot have: changes out of order, or past the end. */
        const v4a_change backwards[2] = {{3, 1, 3, 1, 1}, {1, 1, 1, 1, 2}};
        const v4a_change past_end[1] = {{1, 1, 1, 40, 1}};
        const v4a_change *bad[2] = {backwards, past_end};
        const size_t bad_len[2] = {2, 1};
        for (size_t k = 0; k < 2; k++) {
            in.changes.ptr = bad[k];
            in.changes.len = bad_len[k];
            CHECK_STATUS(v4a_unified_diff(&in, &parts), V4A_STATUS_INVALID_ARGUMENT);
            const v4a_error *e = parts ? v4a_text_error(parts) : NULL;
            CHECK(e != NULL && strstr((const char *)e->message.ptr, "change ") != NULL);
            v4a_text_free(parts);
        }
    }
    v4a_text_free(unified);
    v4a_result_free(r);
}

static void test_apply_changes_only_diff(void) {
    const char *source = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
    v4a_options o = options_with_diff(V4A_DIFF_STYLE_CHANGES, 1);
    v4a_result *r = apply(source, "@@\n 4\n-5\n+five\n 6\n", V4A_MODE_UPDATE, &o, V4A_STATUS_OK);
    v4a_diff_lines lines = v4a_result_diff(r);
    CHECK(lines.len == 4);
    if (lines.len == 4) {
        CHECK(lines.ptr[0].kind == V4A_DIFF_EQUAL && lines.ptr[0].old_line == 4);
        CHECK(lines.ptr[1].kind == V4A_DIFF_DELETE && lines.ptr[1].old_line == 5 &&
              lines.ptr[1].new_line == 0);
        CHECK(lines.ptr[2].kind == V4A_DIFF_ADD && lines.ptr[2].old_line == 0 &&
              lines.ptr[2].new_line == 5);
        CHECK_VIEW(lines.ptr[2].text, "five");
        CHECK(lines.ptr[3].kind == V4A_DIFF_EQUAL && lines.ptr[3].old_line == 6);
    }
    v4a_result_free(r);

    /* Without diff_style there is no structured diff, but the edit script is there. */
    r = apply(source, "@@\n 4\n-5\n+five\n 6\n", V4A_MODE_UPDATE, NULL, V4A_STATUS_OK);
    CHECK(v4a_result_diff(r).len == 0 && v4a_result_diff(r).ptr == NULL);
    CHECK(v4a_result_changes(r).len == 1);
    v4a_result_free(r);
}

static void test_fidelity_and_report_flags(void) {
    /* CRLF, a BOM and a missing final newline survive; a trim-level match re-indents. */
    v4a_result *r = apply("\xEF\xBB\xBF" "a\r\nb\r\nc", "@@\n a\n-b\n+B\n", V4A_MODE_UPDATE, NULL,
                          V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "\xEF\xBB\xBF" "a\r\nB\r\nc");
    v4a_result_free(r);

    r = apply("def f():\n\tif x:\n\t\treturn 1\n", "@@\n     if x:\n-        return 1\n"
              "+        return 2\n", V4A_MODE_UPDATE, NULL, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "def f():\n\tif x:\n\t\treturn 2\n");
    CHECK(v4a_result_hunks(r).len == 1 &&
          (v4a_result_hunks(r).ptr[0].flags & V4A_HUNK_REINDENTED) != 0);
    CHECK(v4a_result_hunks(r).len == 1 && v4a_result_hunks(r).ptr[0].level == V4A_LEVEL_TRIM);
    CHECK(v4a_result_fuzz(r) == 10);
    v4a_result_free(r);

    /* Already applied: a no-op with the flag. */
    r = apply("a\nb2\nc\n", "@@\n a\n-b\n+b2\n", V4A_MODE_UPDATE, NULL, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "a\nb2\nc\n");
    CHECK(v4a_result_hunks(r).len == 1 &&
          v4a_result_hunks(r).ptr[0].flags == V4A_HUNK_ALREADY_APPLIED);
    CHECK(v4a_result_changes(r).len == 0);
    v4a_result_free(r);

    /* A pure insertion without anchor goes to the end of the file. */
    r = apply("a\n", "@@\n+b\n", V4A_MODE_UPDATE, NULL, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "a\nb\n");
    CHECK(v4a_result_hunks(r).len == 1 &&
          v4a_result_hunks(r).ptr[0].flags == V4A_HUNK_END_OF_FILE);
    v4a_result_free(r);
}

static void test_modes(void) {
    v4a_result *r;
    v4a_options o;
    const v4a_error *e;

    /* create ignores the source */
    r = apply("ignored", "+one\n+two\n", V4A_MODE_CREATE, NULL, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "one\ntwo\n");
    CHECK_VIEW(v4a_result_source(r), "");
    CHECK(v4a_result_changes(r).len == 1);
    v4a_result_free(r);

    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    o.add_file_line_ending = V4A_LINE_ENDING_CRLF;
    r = apply(NULL, "*** Begin Patch\n*** Add File: x.txt\n+one\n*** End Patch\n",
              V4A_MODE_CREATE, &o, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "one\r\n");
    CHECK_VIEW(v4a_result_path(r), "x.txt");
    v4a_result_free(r);

    /* delete: empty text, every line removed */
    o = options_with_diff(V4A_DIFF_STYLE_FULL, 0);
    r = apply("a\nb\n", NULL, V4A_MODE_DELETE, &o, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "");
    CHECK_VIEW(v4a_result_source(r), "a\nb\n");
    CHECK(v4a_result_diff(r).len == 2 && v4a_result_diff(r).ptr[1].kind == V4A_DIFF_DELETE);
    v4a_result_free(r);

    /* move: edits like update, reports the destination */
    r = apply("a\nb\n", "*** Begin Patch\n*** Update File: old.txt\n*** Move to: new.txt\n@@\n"
              " a\n-b\n+c\n*** End Patch\n", V4A_MODE_MOVE, NULL, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "a\nc\n");
    CHECK_VIEW(v4a_result_path(r), "old.txt");
    CHECK_VIEW(v4a_result_destination(r), "new.txt");
    v4a_result_free(r);

    /* a mode out of range is UNSUPPORTED_MODE, never a silent update */
    r = apply("a\n", "@@\n-a\n+b\n", 4, NULL, V4A_STATUS_UNSUPPORTED_MODE);
    e = error_of(r, V4A_STATUS_UNSUPPORTED_MODE);
    if (e) {
        CHECK_VIEW(e->message, "mode is 4: expected V4A_MODE_UPDATE (0), V4A_MODE_CREATE (1), "
                               "V4A_MODE_DELETE (2) or V4A_MODE_MOVE (3)");
    }
    CHECK_VIEW(v4a_result_text(r), "");
    v4a_result_free(r);
    r = apply("a\n", "@@\n-a\n+b\n", UINT32_MAX, NULL, V4A_STATUS_UNSUPPORTED_MODE);
    v4a_result_free(r);

    /* modes by name, as the one-file-per-call tool sends them */
    r = NULL;
    CHECK_STATUS(v4a_apply_mode_name(LIT("a\n"), LIT("@@\n-a\n+b\n"), LIT("update"), NULL, &r),
                 V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "b\n");
    v4a_result_free(r);
    r = NULL;
    CHECK_STATUS(v4a_apply_mode_name(LIT("a\n"), LIT("@@\n-a\n+b\n"), LIT("rename"), NULL, &r),
                 V4A_STATUS_UNSUPPORTED_MODE);
    e = error_of(r, V4A_STATUS_UNSUPPORTED_MODE);
    if (e) {
        CHECK_VIEW(e->message,
                   "unsupported mode \"rename\": expected update, create, delete or move");
    }
    v4a_result_free(r);

    /* several files given to the single-file call */
    r = apply("a\n", "*** Begin Patch\n*** Add File: a\n+x\n*** Add File: b\n+y\n*** End Patch\n",
              V4A_MODE_CREATE, NULL, V4A_STATUS_INVALID_ARGUMENT);
    e = error_of(r, V4A_STATUS_INVALID_ARGUMENT);
    if (e) {
        CHECK_CONTAINS(e->message, "multi-file API");
    }
    v4a_result_free(r);
}

/* ---------------------------------------------------------------------------------------- */

static void test_diagnostics(void) {
    v4a_result *r;
    const v4a_error *e;
    v4a_options o;

    /* ambiguity: every candidate, the hunk, the patch line, a suggestion */
    r = apply("def save(self):\n    x = 1\n    return\ndef load(self):\n    x = 1\n    return\n",
              "@@\n-    x = 1\n+    x = 2\n", V4A_MODE_UPDATE, NULL, V4A_STATUS_AMBIGUOUS);
    e = error_of(r, V4A_STATUS_AMBIGUOUS);
    if (e) {
        CHECK(e->candidates.len == 2);
        CHECK(e->candidates.len == 2 && e->candidates.ptr[0] == 2 && e->candidates.ptr[1] == 5);
        CHECK(e->hunk == 1);
        CHECK(e->patch_line == 1);
        CHECK_ABSENT(e->path); /* a bare diff names no file */
        CHECK(e->byte_offset == V4A_NO_OFFSET);
        CHECK_CONTAINS(e->message, "matches 2 places");
        CHECK(e->suggestion.ptr != NULL);
        CHECK_CONTAINS(e->suggestion, "@@ def save(self):");
        CHECK(e->suggestion.ptr != NULL && e->suggestion.ptr[e->suggestion.len] == 0);
        CHECK_ABSENT(e->corrected_hunk);
    }
    /* accessors of a failed result */
    CHECK_VIEW(v4a_result_text(r), "");
    CHECK_VIEW(v4a_result_source(r), "");
    CHECK_ABSENT(v4a_result_path(r));
    CHECK(v4a_result_hunks(r).len == 0 && v4a_result_hunks(r).ptr == NULL);
    CHECK(v4a_result_diff(r).len == 0);
    CHECK(v4a_result_segments(r).len == 0);
    CHECK(v4a_result_changes(r).len == 0);
    CHECK(v4a_result_fuzz(r) == 0);
    {
        v4a_text *t = NULL;
        CHECK_STATUS(v4a_result_unified_diff(r, 3, &t), V4A_STATUS_INVALID_ARGUMENT);
        CHECK(t != NULL && v4a_text_error(t) != NULL);
        CHECK_VIEW(v4a_text_bytes(t), "");
        v4a_text_free(t);
    }
    v4a_result_free(r);

    /* not found: the closest region and a corrected hunk */
    r = apply("fn main() {\n    let total = compute(1, 2);\n    println!(\"{}\", total);\n}\n",
              "@@\n fn main() {\n-    let total = compute(1, 3);\n+    let total = compute(2, 3);\n",
              V4A_MODE_UPDATE, NULL, V4A_STATUS_CONTEXT_NOT_FOUND);
    e = error_of(r, V4A_STATUS_CONTEXT_NOT_FOUND);
    if (e) {
        CHECK(e->hunk == 1);
        CHECK(e->closest_start == 1);
        CHECK(e->closest_end == 2);
        CHECK(e->closest_similarity > 0.5 && e->closest_similarity < 1.0);
        CHECK(e->corrected_hunk.ptr != NULL);
        CHECK_CONTAINS(e->corrected_hunk, "-    let total = compute(1, 2);");
        CHECK_CONTAINS(e->corrected_hunk, "+    let total = compute(2, 3);");
        CHECK(e->candidates.len == 0 && e->candidates.ptr == NULL);
    }
    v4a_result_free(r);

    /* an anchor found nowhere is set aside when the hunk is unique without it (flagged) */
    r = apply("a\nb\n", "@@ class Missing\n-a\n+b\n", V4A_MODE_UPDATE, NULL, V4A_STATUS_OK);
    CHECK(v4a_result_hunks(r).len == 1 &&
          (v4a_result_hunks(r).ptr[0].flags & V4A_HUNK_ANCHOR_IGNORED) != 0);
    v4a_result_free(r);

    /* anchor not found, and the hunk fits more than one place without it */
    r = apply("a\nb\na\nb\n", "@@ class Missing\n-a\n+b\n", V4A_MODE_UPDATE, NULL,
              V4A_STATUS_ANCHOR_NOT_FOUND);
    e = error_of(r, V4A_STATUS_ANCHOR_NOT_FOUND);
    if (e) {
        CHECK(e->patch_line == 1);
        CHECK_CONTAINS(e->message, "class Missing");
    }
    v4a_result_free(r);

    /* syntax: the patch line */
    r = apply("a\n", "@@\n a\nxb\n", V4A_MODE_UPDATE, NULL, V4A_STATUS_PATCH_SYNTAX);
    e = error_of(r, V4A_STATUS_PATCH_SYNTAX);
    if (e) {
        CHECK(e->patch_line == 3);
    }
    v4a_result_free(r);

    /* truncated */
    r = apply("a\n", "*** Begin Patch\n*** Update File: a\n@@\n-a\n+b\n", V4A_MODE_UPDATE, NULL,
              V4A_STATUS_TRUNCATED_PATCH);
    error_of(r, V4A_STATUS_TRUNCATED_PATCH);
    v4a_result_free(r);

    /* overlapping hunks */
    r = apply("a\nb\nc\n", "@@\n a\n-b\n+x\n@@\n-b\n+y\n", V4A_MODE_UPDATE, NULL,
              V4A_STATUS_OVERLAPPING_HUNKS);
    e = error_of(r, V4A_STATUS_OVERLAPPING_HUNKS);
    if (e) {
        CHECK(e->hunk == 2);
    }
    v4a_result_free(r);

    /* options turned into errors: already applied, fuzz limit, strict level */
    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    o.already_applied_is_error = 1;
    r = apply("a\nb2\n", "@@\n a\n-b\n+b2\n", V4A_MODE_UPDATE, &o, V4A_STATUS_ALREADY_APPLIED);
    v4a_result_free(r);
    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    o.max_fuzz = 0;
    r = apply("a \n", "@@\n-a\n+b\n", V4A_MODE_UPDATE, &o, V4A_STATUS_FUZZ_LIMIT);
    v4a_result_free(r);
    o.max_fuzz = 1;
    r = apply("a \n", "@@\n-a\n+b\n", V4A_MODE_UPDATE, &o, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "b\n");
    CHECK(v4a_result_fuzz(r) == 1);
    v4a_result_free(r);
    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    o.max_level = V4A_LEVEL_EXACT;
    r = apply("a \n", "@@\n-a\n+b\n", V4A_MODE_UPDATE, &o, V4A_STATUS_CONTEXT_NOT_FOUND);
    v4a_result_free(r);
    /* first match takes the first candidate */
    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    o.first_match = 1;
    r = apply("x\ny\nx\n", "@@\n-x\n+z\n", V4A_MODE_UPDATE, &o, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "z\ny\nx\n");
    CHECK(v4a_result_hunks(r).len == 1 && v4a_result_hunks(r).ptr[0].old_start == 1);
    CHECK(v4a_result_hunks(r).len == 1 && v4a_result_hunks(r).ptr[0].candidates == 2);
    v4a_result_free(r);
    /* ensure a final newline */
    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    o.ensure_final_newline = 1;
    r = apply("a\nb", "@@\n-a\n+c\n", V4A_MODE_UPDATE, &o, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "c\nb\n");
    v4a_result_free(r);
}

static void test_invalid_utf8(void) {
    static const uint8_t bad_source[] = {'a', '\n', 'b', 0xC3, 0x28, '\n'};
    static const uint8_t bad_patch[] = {'@', '@', '\n', '-', 'a', '\n', '+', 0xFF, '\n'};
    v4a_result *r = NULL;
    const v4a_error *e;

    CHECK_STATUS(v4a_apply(bad_source, sizeof bad_source, LIT("@@\n-a\n+b\n"), V4A_MODE_UPDATE,
                           NULL, &r),
                 V4A_STATUS_INVALID_UTF8);
    e = error_of(r, V4A_STATUS_INVALID_UTF8);
    if (e) {
        CHECK(e->byte_offset == 3);
        CHECK_VIEW(e->input, "source");
        CHECK_VIEW(e->message, "the source is not valid UTF-8: invalid byte at offset 3");
    }
    v4a_result_free(r);

    r = NULL;
    CHECK_STATUS(v4a_apply(LIT("a\n"), bad_patch, sizeof bad_patch, V4A_MODE_UPDATE, NULL, &r),
                 V4A_STATUS_INVALID_UTF8);
    e = error_of(r, V4A_STATUS_INVALID_UTF8);
    if (e) {
        CHECK(e->byte_offset == 7);
        CHECK_VIEW(e->input, "patch");
    }
    v4a_result_free(r);

    /* create mode ignores the source, even when it is not UTF-8 */
    r = NULL;
    CHECK_STATUS(v4a_apply(bad_source, sizeof bad_source, LIT("+x\n"), V4A_MODE_CREATE, NULL, &r),
                 V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "x\n");
    v4a_result_free(r);
}

/* ---------------------------------------------------------------------------------------- */

static void test_multi_file(void) {
    v4a_patch *p = NULL;
    v4a_ops ops;
    v4a_source sources[4];
    v4a_result_set *set = NULL;
    v4a_file_results files;
    const v4a_error *e;

    CHECK_STATUS(v4a_patch_parse(LIT(MULTI_PATCH), &p), V4A_STATUS_OK);
    CHECK_STATUS(v4a_patch_status(p), V4A_STATUS_OK);
    CHECK(v4a_patch_error(p) == NULL);
    ops = v4a_patch_ops(p);
    CHECK(ops.len == 4);
    if (ops.len == 4) {
        CHECK(ops.ptr[0].kind == V4A_OP_ADD);
        CHECK_VIEW(ops.ptr[0].path, "docs/new.md");
        CHECK_ABSENT(ops.ptr[0].move_to);
        CHECK(ops.ptr[0].path_class == V4A_PATH_RELATIVE);
        CHECK(ops.ptr[0].move_to_class == V4A_PATH_EMPTY);
        CHECK(ops.ptr[0].patch_line == 2);
        CHECK(ops.ptr[0].hunk_count == 1);
        CHECK(ops.ptr[1].kind == V4A_OP_UPDATE);
        CHECK_VIEW(ops.ptr[1].path, "src/app.py");
        CHECK_VIEW(ops.ptr[1].move_to, "src/main.py");
        CHECK(ops.ptr[1].move_to_class == V4A_PATH_RELATIVE);
        CHECK(ops.ptr[1].patch_line == 4);
        CHECK(ops.ptr[1].hunk_count == 1);
        CHECK(ops.ptr[2].kind == V4A_OP_DELETE);
        CHECK_VIEW(ops.ptr[2].path, "old.txt");
        CHECK(ops.ptr[2].hunk_count == 0);
        CHECK(ops.ptr[3].path_class == V4A_PATH_PARENT_ESCAPE);
        CHECK(ops.ptr[3].reserved == 0);
    }

    multi_sources(sources);
    CHECK_STATUS(v4a_patch_apply(p, sources, 4, NULL, &set), V4A_STATUS_OK);
    CHECK_STATUS(v4a_result_set_status(set), V4A_STATUS_OK);
    CHECK(v4a_result_set_error(set) == NULL);
    CHECK_VIEW(v4a_result_set_summary(set), "Success. Updated the following files:\n"
                                            "A docs/new.md\nM src/main.py\nD old.txt\n"
                                            "M ../escape.txt\n");
    files = v4a_result_set_files(set);
    CHECK(files.len == 4);
    if (files.len == 4) {
        CHECK(files.ptr[0].kind == V4A_OP_ADD);
        CHECK_VIEW(files.ptr[0].path, "docs/new.md");
        CHECK_VIEW(v4a_result_text(files.ptr[0].result), "# Title\n");
        CHECK(files.ptr[1].kind == V4A_OP_UPDATE);
        CHECK_VIEW(files.ptr[1].move_to, "src/main.py");
        CHECK_VIEW(v4a_result_text(files.ptr[1].result), "x = 2\n");
        CHECK_VIEW(v4a_result_source(files.ptr[1].result), "x = 1\n");
        CHECK_VIEW(v4a_result_path(files.ptr[1].result), "src/app.py");
        CHECK_STATUS(v4a_result_status(files.ptr[1].result), V4A_STATUS_OK);
        CHECK(v4a_result_hunks(files.ptr[1].result).len == 1);
        CHECK(files.ptr[2].kind == V4A_OP_DELETE);
        CHECK_ABSENT(files.ptr[2].move_to);
        CHECK_VIEW(v4a_result_text(files.ptr[2].result), "");
        CHECK_VIEW(v4a_result_source(files.ptr[2].result), "bye\n");
        CHECK_VIEW(v4a_result_text(files.ptr[3].result), "b\n");
    }
    v4a_result_set_free(set);

    /* atomic: the last operation fails, nothing comes back but the error */
    sources[3].ptr = (const uint8_t *)"zzz\n";
    sources[3].len = 4;
    set = NULL;
    CHECK_STATUS(v4a_patch_apply(p, sources, 4, NULL, &set), V4A_STATUS_CONTEXT_NOT_FOUND);
    CHECK(v4a_result_set_files(set).len == 0 && v4a_result_set_files(set).ptr == NULL);
    CHECK_VIEW(v4a_result_set_summary(set), "");
    e = v4a_result_set_error(set);
    CHECK(e != NULL);
    if (e) {
        CHECK_VIEW(e->path, "../escape.txt");
        CHECK(e->hunk == 1);
        CHECK(e->patch_line == 11);
    }
    v4a_result_set_free(set);

    /* a missing source */
    sources[2].present = 0;
    set = NULL;
    CHECK_STATUS(v4a_patch_apply(p, sources, 4, NULL, &set), V4A_STATUS_MISSING_SOURCE);
    e = v4a_result_set_error(set);
    CHECK(e != NULL && view_equals(e->path, "old.txt", 7));
    v4a_result_set_free(set);
    sources[2].present = 1;

    /* bad source arrays */
    set = NULL;
    CHECK_STATUS(v4a_patch_apply(p, sources, 3, NULL, &set), V4A_STATUS_INVALID_ARGUMENT);
    e = v4a_result_set_error(set);
    CHECK(e != NULL && view_contains(e->message, "4 operations but 3 sources"));
    v4a_result_set_free(set);
    set = NULL;
    CHECK_STATUS(v4a_patch_apply(p, NULL, 4, NULL, &set), V4A_STATUS_NULL_ARGUMENT);
    CHECK(v4a_result_set_error(set) != NULL);
    v4a_result_set_free(set);
    sources[1].present = 2;
    set = NULL;
    CHECK_STATUS(v4a_patch_apply(p, sources, 4, NULL, &set), V4A_STATUS_INVALID_ARGUMENT);
    e = v4a_result_set_error(set);
    CHECK(e != NULL && view_equals(e->message, "sources[1].present is 2: expected 0 or 1", 40));
    v4a_result_set_free(set);
    sources[1].present = 1;
    sources[0].reserved = 7;
    set = NULL;
    CHECK_STATUS(v4a_patch_apply(p, sources, 4, NULL, &set), V4A_STATUS_INVALID_ARGUMENT);
    v4a_result_set_free(set);
    sources[0].reserved = 0;
    sources[1].ptr = NULL; /* NULL with a length */
    set = NULL;
    CHECK_STATUS(v4a_patch_apply(p, sources, 4, NULL, &set), V4A_STATUS_NULL_ARGUMENT);
    v4a_result_set_free(set);
    v4a_patch_free(p);

    /* a source that is not UTF-8, with the path */
    p = NULL;
    CHECK_STATUS(v4a_patch_parse(LIT("*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n"
                                     "*** End Patch\n"),
                                 &p),
                 V4A_STATUS_OK);
    memset(sources, 0, sizeof sources);
    sources[0].ptr = (const uint8_t *)"ok\xFF\n";
    sources[0].len = 4;
    sources[0].present = 1;
    set = NULL;
    CHECK_STATUS(v4a_patch_apply(p, sources, 1, NULL, &set), V4A_STATUS_INVALID_UTF8);
    e = v4a_result_set_error(set);
    CHECK(e != NULL && e->byte_offset == 2 && view_equals(e->path, "a.txt", 5));
    v4a_result_set_free(set);
    v4a_patch_free(p);

    /* parse errors come back in the patch, and apply repeats them */
    p = NULL;
    CHECK_STATUS(v4a_patch_parse(LIT("*** Begin Patch\n*** Frobnicate File: x\n*** End Patch\n"),
                                 &p),
                 V4A_STATUS_PATCH_SYNTAX);
    CHECK_STATUS(v4a_patch_status(p), V4A_STATUS_PATCH_SYNTAX);
    CHECK(v4a_patch_ops(p).len == 0 && v4a_patch_ops(p).ptr == NULL);
    e = v4a_patch_error(p);
    CHECK(e != NULL && e->patch_line == 2);
    set = NULL;
    CHECK_STATUS(v4a_patch_apply(p, NULL, 0, NULL, &set), V4A_STATUS_PATCH_SYNTAX);
    CHECK(v4a_result_set_error(set) != NULL && v4a_result_set_error(set)->patch_line == 2);
    v4a_result_set_free(set);
    v4a_patch_free(p);

    /* duplicate paths */
    p = NULL;
    CHECK_STATUS(v4a_patch_parse(LIT("*** Begin Patch\n*** Delete File: a\n*** Delete File: a\n"
                                     "*** End Patch\n"),
                                 &p),
                 V4A_STATUS_DUPLICATE_PATH);
    v4a_patch_free(p);

    /* the strict parser refuses wrappers the lenient one accepts */
    p = NULL;
    CHECK_STATUS(v4a_patch_parse(LIT("```\n*** Begin Patch\n*** Delete File: a\n*** End Patch\n"
                                     "```\n"),
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
    CHECK_STATUS(v4a_patch_parse_strict(LIT("*** Begin Patch\n*** Delete File: a\n*** End Patch\n"),
                                        &p),
                 V4A_STATUS_OK);
    v4a_patch_free(p);
}

static void test_classify_path(void) {
    uint32_t c = 99;
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
}

/* ---------------------------------------------------------------------------------------- */

/* The segments of a line cover it, in order, without gaps; returns 0 when they do not. */
static int segments_cover(const v4a_result *r, const v4a_diff_line *line) {
    v4a_segments segs = v4a_result_segments(r);
    size_t at = 0, k;
    if (line->segment_start + line->segment_count > segs.len) {
        return 0;
    }
    for (k = 0; k < line->segment_count; k++) {
        const v4a_segment *s = &segs.ptr[line->segment_start + k];
        if (s->start != at || s->end <= s->start || s->reserved != 0) {
            return 0;
        }
        at = s->end;
    }
    return at == line->text.len;
}

/* The kind of the segment of `line` that holds byte `offset`, or UINT32_MAX. */
static uint32_t segment_kind_at(const v4a_result *r, const v4a_diff_line *line, size_t offset) {
    v4a_segments segs = v4a_result_segments(r);
    size_t k;
    for (k = 0; k < line->segment_count; k++) {
        const v4a_segment *s = &segs.ptr[line->segment_start + k];
        if (s->start <= offset && offset < s->end) {
            return s->kind;
        }
    }
    return UINT32_MAX;
}

static void test_refinement(void) {
    v4a_options o = options_with_diff(V4A_DIFF_STYLE_CHANGES, 0);
    v4a_result *r;
    v4a_diff_lines lines;
    o.refine = 1;

    /* One changed character: the rest of each line is equal. */
    r = apply("let total = 10;\n", "@@\n-let total = 10;\n+let total = 20;\n", V4A_MODE_UPDATE, &o,
              V4A_STATUS_OK);
    lines = v4a_result_diff(r);
    CHECK(lines.len == 2);
    if (lines.len == 2) {
        const v4a_diff_line *del = &lines.ptr[0], *add = &lines.ptr[1];
        CHECK(del->kind == V4A_DIFF_DELETE && add->kind == V4A_DIFF_ADD);
        CHECK(del->segment_count >= 2);
        CHECK(add->segment_count >= 2);
        CHECK(segments_cover(r, del));
        CHECK(segments_cover(r, add));
        CHECK(segment_kind_at(r, del, 0) == V4A_DIFF_EQUAL);
        CHECK(segment_kind_at(r, del, 12) == V4A_DIFF_DELETE); /* the "1" */
        CHECK(segment_kind_at(r, add, 12) == V4A_DIFF_ADD);    /* the "2" */
        CHECK(segment_kind_at(r, add, 14) == V4A_DIFF_EQUAL);  /* the ";" */
    }
    v4a_result_free(r);

    /* Grapheme clusters are never split: an emoji with a skin-tone modifier changes whole. */
    r = apply("ok \xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD done\n",
              "@@\n-ok \xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD done\n+ok \xF0\x9F\x91\x8E\xF0\x9F\x8F\xBD done\n",
              V4A_MODE_UPDATE, &o, V4A_STATUS_OK);
    lines = v4a_result_diff(r);
    CHECK(lines.len == 2);
    if (lines.len == 2) {
        v4a_segments segs = v4a_result_segments(r);
        size_t k;
        CHECK(lines.ptr[0].segment_count > 0);
        CHECK(segments_cover(r, &lines.ptr[0]));
        CHECK(segments_cover(r, &lines.ptr[1]));
        for (k = 0; k < segs.len; k++) {
            /* no boundary inside the 8-byte cluster at offsets 3..11 */
            CHECK(!(segs.ptr[k].start > 3 && segs.ptr[k].start < 11));
            CHECK(!(segs.ptr[k].end > 3 && segs.ptr[k].end < 11));
        }
        CHECK(segment_kind_at(r, &lines.ptr[0], 3) == V4A_DIFF_DELETE);
        CHECK(segment_kind_at(r, &lines.ptr[1], 3) == V4A_DIFF_ADD);
    }
    v4a_result_free(r);

    /* Pairing by similarity, not by position: the second deleted line pairs with the first
     * added line. */
    r = apply("x\nfirst line here\nthe quick brown fox\ny\n",
              "@@\n x\n-first line here\n-the quick brown fox\n+the quick brown cat\n"
              "+something else entirely\n y\n",
              V4A_MODE_UPDATE, &o, V4A_STATUS_OK);
    lines = v4a_result_diff(r);
    CHECK(lines.len == 4);
    if (lines.len == 4) {
        CHECK(lines.ptr[0].kind == V4A_DIFF_DELETE && lines.ptr[0].segment_count == 0);
        CHECK(lines.ptr[1].kind == V4A_DIFF_DELETE && lines.ptr[1].segment_count > 0);
        CHECK(lines.ptr[2].kind == V4A_DIFF_ADD && lines.ptr[2].segment_count > 0);
        CHECK(lines.ptr[3].kind == V4A_DIFF_ADD && lines.ptr[3].segment_count == 0);
        CHECK(segments_cover(r, &lines.ptr[1]));
        CHECK(segments_cover(r, &lines.ptr[2]));
        CHECK(segment_kind_at(r, &lines.ptr[1], 0) == V4A_DIFF_EQUAL);
        CHECK(segment_kind_at(r, &lines.ptr[2], 16) == V4A_DIFF_ADD); /* "cat" */
    }
    v4a_result_free(r);

    /* Without refine, no segments. */
    o.refine = 0;
    r = apply("let total = 10;\n", "@@\n-let total = 10;\n+let total = 20;\n", V4A_MODE_UPDATE, &o,
              V4A_STATUS_OK);
    CHECK(v4a_result_segments(r).len == 0);
    CHECK(v4a_result_diff(r).len == 2 && v4a_result_diff(r).ptr[0].segment_count == 0);
    v4a_result_free(r);
}

/* ---------------------------------------------------------------------------------------- */

static void test_generation_round_trip(void) {
    const char *old_text = "fn a() {\n    1\n}\nfn b() {\n    1\n}\n";
    const char *new_text = "fn a() {\n    1\n}\nfn b() {\n    2\n}\n";
    v4a_text *t = NULL;
    v4a_result *r;
    v4a_patch *p = NULL;
    v4a_source src;
    v4a_generate_options g;
    v4a_bytes patch;

    CHECK_STATUS(v4a_make_patch((const uint8_t *)old_text, strlen(old_text),
                                (const uint8_t *)new_text, strlen(new_text), LIT("src/lib.rs"),
                                NULL, &t),
                 V4A_STATUS_OK);
    patch = v4a_text_bytes(t);
    CHECK(patch.ptr != NULL && patch.ptr[patch.len] == 0);
    CHECK(view_contains(patch, "*** Update File: src/lib.rs\n"));
    r = NULL;
    CHECK_STATUS(v4a_apply((const uint8_t *)old_text, strlen(old_text), patch.ptr, patch.len,
                           V4A_MODE_UPDATE, NULL, &r),
                 V4A_STATUS_OK);
    CHECK_VIEW_STR(v4a_result_text(r), new_text);
    v4a_result_free(r);
    v4a_text_free(t);

    /* fewer context lines, with options */
    CHECK_STATUS(v4a_generate_options_init(&g), V4A_STATUS_OK);
    g.context = 0;
    t = NULL;
    CHECK_STATUS(v4a_make_patch(LIT("a\nb\nc\n"), LIT("a\nB\nc\n"), LIT("f"), &g, &t),
                 V4A_STATUS_OK);
    CHECK_VIEW(v4a_text_bytes(t), "*** Begin Patch\n*** Update File: f\n@@\n-b\n+B\n"
                                  "*** End Patch\n");
    v4a_text_free(t);

    /* what a patch cannot express: a changed terminator, a BOM added */
    t = NULL;
    CHECK_STATUS(v4a_make_patch(LIT("a\n"), LIT("a\r\n"), LIT("f"), NULL, &t),
                 V4A_STATUS_INVALID_ARGUMENT);
    CHECK(v4a_text_error(t) != NULL && view_contains(v4a_text_error(t)->message, "terminators"));
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_make_patch(LIT("a\n"), LIT("\xEF\xBB\xBF" "a\n"), LIT("f"), NULL, &t),
                 V4A_STATUS_INVALID_ARGUMENT);
    CHECK(v4a_text_error(t) != NULL &&
          view_contains(v4a_text_error(t)->message, "byte order mark"));
    CHECK_VIEW(v4a_text_bytes(t), "");
    v4a_text_free(t);

    /* add, delete, move */
    t = NULL;
    CHECK_STATUS(v4a_make_add_patch(LIT("n.txt"), LIT("x\ny"), &t), V4A_STATUS_OK);
    CHECK_VIEW(v4a_text_bytes(t), "*** Begin Patch\n*** Add File: n.txt\n+x\n+y\n"
                                  "\\ No newline at end of file\n*** End Patch\n");
    r = NULL;
    CHECK_STATUS(v4a_apply(NULL, 0, v4a_text_bytes(t).ptr, v4a_text_bytes(t).len, V4A_MODE_CREATE,
                           NULL, &r),
                 V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "x\ny");
    v4a_result_free(r);
    v4a_text_free(t);

    t = NULL;
    CHECK_STATUS(v4a_make_delete_patch(LIT("gone.txt"), &t), V4A_STATUS_OK);
    CHECK_VIEW(v4a_text_bytes(t), "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n");
    v4a_text_free(t);

    t = NULL;
    CHECK_STATUS(v4a_make_move_patch(LIT("a\n"), LIT("b\n"), LIT("x"), LIT("y"), NULL, &t),
                 V4A_STATUS_OK);
    CHECK_VIEW(v4a_text_bytes(t), "*** Begin Patch\n*** Update File: x\n*** Move to: y\n@@\n-a\n"
                                  "+b\n*** End Patch\n");
    v4a_text_free(t);

    /* reverse: applying the reverse to the result gives the source back */
    CHECK_STATUS(v4a_patch_parse(LIT("*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n"
                                     "*** End Patch\n"),
                                 &p),
                 V4A_STATUS_OK);
    src.ptr = (const uint8_t *)"x\n";
    src.len = 2;
    src.present = 1;
    src.reserved = 0;
    t = NULL;
    CHECK_STATUS(v4a_patch_reverse(p, &src, 1, NULL, &t), V4A_STATUS_OK);
    CHECK_VIEW(v4a_text_bytes(t), "*** Begin Patch\n*** Update File: a\n@@\n-y\n+x\n"
                                  "*** End Patch\n");
    r = NULL;
    CHECK_STATUS(v4a_apply(LIT("y\n"), v4a_text_bytes(t).ptr, v4a_text_bytes(t).len,
                           V4A_MODE_UPDATE, NULL, &r),
                 V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "x\n");
    v4a_result_free(r);
    v4a_text_free(t);
    /* the reverse of a patch that does not apply is the apply's error */
    src.ptr = (const uint8_t *)"q\n";
    t = NULL;
    CHECK_STATUS(v4a_patch_reverse(p, &src, 1, NULL, &t), V4A_STATUS_CONTEXT_NOT_FOUND);
    v4a_text_free(t);
    v4a_patch_free(p);

    /* a multi-file reverse: Add <-> Delete, moves back, operations in reverse order */
    p = NULL;
    CHECK_STATUS(v4a_patch_parse(LIT(MULTI_PATCH), &p), V4A_STATUS_OK);
    {
        v4a_source s[4];
        multi_sources(s);
        t = NULL;
        CHECK_STATUS(v4a_patch_reverse(p, s, 4, NULL, &t), V4A_STATUS_OK);
        CHECK_VIEW(v4a_text_bytes(t), "*** Begin Patch\n"
                                      "*** Update File: ../escape.txt\n@@\n-b\n+a\n"
                                      "*** Add File: old.txt\n+bye\n"
                                      "*** Update File: src/main.py\n*** Move to: src/app.py\n"
                                      "@@\n-x = 2\n+x = 1\n"
                                      "*** Delete File: docs/new.md\n"
                                      "*** End Patch\n");
        v4a_text_free(t);
    }
    v4a_patch_free(p);

    /* normalisation at each level */
    t = NULL;
    CHECK_STATUS(v4a_normalize(LIT("  a \xE2\x80\x9C" "b\xE2\x80\x9D  c  "), V4A_LEVEL_FOLD, &t),
                 V4A_STATUS_OK);
    CHECK_VIEW(v4a_text_bytes(t), "a \"b\" c");
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_normalize(LIT("  a  b  "), V4A_LEVEL_TRIM_END, &t), V4A_STATUS_OK);
    CHECK_VIEW(v4a_text_bytes(t), "  a  b");
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_normalize(LIT("a"), 5, &t), V4A_STATUS_INVALID_ARGUMENT);
    v4a_text_free(t);
}

static void test_tools(void) {
    static const char *names[] = {"\"name\": \"apply_patch\"", "\"name\": \"patch_file\""};
    v4a_flavor f;
    v4a_shape s;
    v4a_bytes v;
    for (f = V4A_FLAVOR_OPENAI_CHAT; f <= V4A_FLAVOR_OPENAI_RESPONSES; f++) {
        for (s = V4A_SHAPE_INPUT; s <= V4A_SHAPE_FILE; s++) {
            v = v4a_tool_schema(f, s);
            CHECK(v.ptr != NULL && v.len > 2 && v.ptr[0] == '{' && v.ptr[v.len] == 0);
            CHECK_CONTAINS(v, names[s]);
        }
    }
    CHECK_CONTAINS(v4a_tool_schema(V4A_FLAVOR_OPENAI_CHAT, V4A_SHAPE_INPUT), "\"function\": {");
    CHECK_CONTAINS(v4a_tool_schema(V4A_FLAVOR_OPENAI_RESPONSES, V4A_SHAPE_INPUT), "\"strict\": true");
    CHECK_CONTAINS(v4a_tool_schema(V4A_FLAVOR_OPENAI_RESPONSES_CUSTOM, V4A_SHAPE_FILE),
                   "\"syntax\": \"lark\"");
    CHECK_CONTAINS(v4a_tool_schema(V4A_FLAVOR_ANTHROPIC, V4A_SHAPE_INPUT), "\"input_schema\"");
    CHECK_CONTAINS(v4a_tool_schema(V4A_FLAVOR_MCP, V4A_SHAPE_FILE), "\"inputSchema\"");

    /* A flavour or shape that names no constant: absent. */
    CHECK_ABSENT(v4a_tool_schema(5, V4A_SHAPE_INPUT));
    CHECK_ABSENT(v4a_tool_schema(V4A_FLAVOR_MCP, 2));
    CHECK_ABSENT(v4a_tool_schema(UINT32_MAX, UINT32_MAX));

    v = v4a_grammar();
    CHECK(v.ptr != NULL && v.ptr[v.len] == 0);
    CHECK_CONTAINS(v, "start: BEGIN_PATCH operation+ END_PATCH");
    v = v4a_file_grammar();
    CHECK(v.ptr != NULL && v.ptr[v.len] == 0);
    CHECK_CONTAINS(v, "start: operation");
    v = v4a_instructions();
    CHECK(v.ptr != NULL && v.ptr[v.len] == 0);
    CHECK_CONTAINS(v, "*** Begin Patch");
}

/* ---------------------------------------------------------------------------------------- */

static void test_null_everywhere(void) {
    v4a_result *r = NULL;
    v4a_patch *p = NULL;
    v4a_result_set *set = NULL;
    v4a_text *t = NULL;
    const v4a_error *e;
    v4a_bytes b;

    /* a NULL out-pointer: nothing is stored, nothing leaks */
    CHECK_STATUS(v4a_apply(LIT("a\n"), LIT("@@\n-a\n+b\n"), V4A_MODE_UPDATE, NULL, NULL),
                 V4A_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(v4a_apply_mode_name(LIT("a\n"), LIT("@@\n-a\n+b\n"), LIT("update"), NULL, NULL),
                 V4A_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(v4a_patch_parse(LIT("@@\n-a\n+b\n"), NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(v4a_patch_parse_strict(LIT("@@\n-a\n+b\n"), NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(v4a_patch_apply(NULL, NULL, 0, NULL, NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(v4a_patch_reverse(NULL, NULL, 0, NULL, NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(v4a_make_patch(LIT("a"), LIT("b"), LIT("p"), NULL, NULL),
                 V4A_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(v4a_make_move_patch(LIT("a"), LIT("b"), LIT("p"), LIT("q"), NULL, NULL),
                 V4A_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(v4a_make_add_patch(LIT("p"), LIT("b"), NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(v4a_make_delete_patch(LIT("p"), NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(v4a_normalize(LIT("a"), V4A_LEVEL_FOLD, NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(v4a_result_unified_diff(NULL, 3, NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(v4a_classify_path(NULL, 0, NULL), V4A_STATUS_NULL_ARGUMENT);

    /* NULL with a length: a handle with the message */
    CHECK_STATUS(v4a_apply(NULL, 5, LIT("@@\n-a\n+b\n"), V4A_MODE_UPDATE, NULL, &r),
                 V4A_STATUS_NULL_ARGUMENT);
    e = error_of(r, V4A_STATUS_NULL_ARGUMENT);
    if (e) {
        CHECK_VIEW(e->message,
                   "source is NULL but its length is 5: pass (NULL, 0) for an empty input");
    }
    v4a_result_free(r);
    r = NULL;
    CHECK_STATUS(v4a_apply(LIT("a\n"), NULL, 1, V4A_MODE_UPDATE, NULL, &r),
                 V4A_STATUS_NULL_ARGUMENT);
    v4a_result_free(r);
    r = NULL;
    CHECK_STATUS(v4a_apply_mode_name(LIT("a\n"), LIT("@@\n-a\n+b\n"), NULL, 6, NULL, &r),
                 V4A_STATUS_NULL_ARGUMENT);
    v4a_result_free(r);
    CHECK_STATUS(v4a_patch_parse(NULL, 3, &p), V4A_STATUS_NULL_ARGUMENT);
    CHECK(p != NULL && v4a_patch_error(p) != NULL);
    v4a_patch_free(p);
    p = NULL;
    CHECK_STATUS(v4a_patch_apply(NULL, NULL, 0, NULL, &set), V4A_STATUS_NULL_ARGUMENT);
    CHECK(set != NULL && view_equals(v4a_result_set_error(set)->message, "patch is NULL", 13));
    v4a_result_set_free(set);
    set = NULL;
    CHECK_STATUS(v4a_patch_reverse(NULL, NULL, 0, NULL, &t), V4A_STATUS_NULL_ARGUMENT);
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_make_patch(NULL, 1, LIT("b"), LIT("p"), NULL, &t), V4A_STATUS_NULL_ARGUMENT);
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_result_unified_diff(NULL, 3, &t), V4A_STATUS_NULL_ARGUMENT);
    CHECK(t != NULL);
    v4a_text_free(t);
    t = NULL;

    /* accessors of NULL handles */
    CHECK_STATUS(v4a_result_status(NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK(v4a_result_error(NULL) == NULL);
    b = v4a_result_text(NULL);
    CHECK_ABSENT(b);
    CHECK_ABSENT(v4a_result_source(NULL));
    CHECK_ABSENT(v4a_result_path(NULL));
    CHECK_ABSENT(v4a_result_destination(NULL));
    CHECK(v4a_result_fuzz(NULL) == 0);
    CHECK(v4a_result_hunks(NULL).ptr == NULL && v4a_result_hunks(NULL).len == 0);
    CHECK(v4a_result_diff(NULL).ptr == NULL && v4a_result_diff(NULL).len == 0);
    CHECK(v4a_result_segments(NULL).ptr == NULL && v4a_result_segments(NULL).len == 0);
    CHECK(v4a_result_changes(NULL).ptr == NULL && v4a_result_changes(NULL).len == 0);
    CHECK_STATUS(v4a_patch_status(NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK(v4a_patch_error(NULL) == NULL);
    CHECK(v4a_patch_ops(NULL).ptr == NULL && v4a_patch_ops(NULL).len == 0);
    CHECK_STATUS(v4a_result_set_status(NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK(v4a_result_set_error(NULL) == NULL);
    CHECK(v4a_result_set_files(NULL).ptr == NULL && v4a_result_set_files(NULL).len == 0);
    CHECK_ABSENT(v4a_result_set_summary(NULL));
    CHECK_STATUS(v4a_text_status(NULL), V4A_STATUS_NULL_ARGUMENT);
    CHECK(v4a_text_error(NULL) == NULL);
    CHECK_ABSENT(v4a_text_bytes(NULL));

    /* frees are NULL-safe */
    v4a_result_free(NULL);
    v4a_patch_free(NULL);
    v4a_result_set_free(NULL);
    v4a_text_free(NULL);
    /* (nothing to check: they must not crash, which the ASan and valgrind runs watch) */
}

static void test_zero_length_inputs(void) {
    v4a_result *r = NULL;
    v4a_patch *p = NULL;
    v4a_text *t = NULL;
    static const uint8_t not_null[1] = {'z'};

    /* (NULL, 0) and (pointer, 0) are both empty */
    r = apply(NULL, "+a\n", V4A_MODE_UPDATE, NULL, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "a\n");
    CHECK_VIEW(v4a_result_source(r), "");
    v4a_result_free(r);
    r = NULL;
    CHECK_STATUS(v4a_apply(not_null, 0, LIT("+a\n"), V4A_MODE_UPDATE, NULL, &r), V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "a\n");
    v4a_result_free(r);

    /* an empty diff: nothing to apply */
    r = apply("a\n", NULL, V4A_MODE_UPDATE, NULL, V4A_STATUS_PATCH_SYNTAX);
    v4a_result_free(r);
    /* empty delete diff: the delete mode's empty diff */
    r = apply(NULL, NULL, V4A_MODE_DELETE, NULL, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "");
    CHECK(v4a_result_changes(r).len == 0);
    v4a_result_free(r);

    CHECK(v4a_patch_parse(NULL, 0, &p) != V4A_STATUS_OK);
    CHECK(p != NULL && v4a_patch_ops(p).len == 0);
    v4a_patch_free(p);

    /* generation from and to empty texts */
    CHECK_STATUS(v4a_make_patch(NULL, 0, NULL, 0, LIT("e"), NULL, &t), V4A_STATUS_OK);
    CHECK_VIEW(v4a_text_bytes(t), "*** Begin Patch\n*** End Patch\n");
    v4a_text_free(t);
    t = NULL;
    CHECK_STATUS(v4a_make_add_patch(LIT("e"), NULL, 0, &t), V4A_STATUS_OK);
    CHECK_VIEW(v4a_text_bytes(t), "*** Begin Patch\n*** Add File: e\n*** End Patch\n");
    v4a_text_free(t);
}

static void test_out_of_range_options(void) {
    v4a_options o;
    v4a_generate_options g;
    v4a_result *r;
    v4a_text *t = NULL;
    const v4a_error *e;
    struct {
        size_t offset;
        uint32_t value;
        const char *message;
    } cases[] = {
        {offsetof(v4a_options, max_level), 5,
         "v4a_options.max_level is 5: expected V4A_LEVEL_EXACT (0) ... V4A_LEVEL_FOLD (4)"},
        {offsetof(v4a_options, first_match), 2, "v4a_options.first_match is 2: expected 0 or 1"},
        {offsetof(v4a_options, already_applied_is_error), UINT32_MAX,
         "v4a_options.already_applied_is_error is 4294967295: expected 0 or 1"},
        {offsetof(v4a_options, ensure_final_newline), 3,
         "v4a_options.ensure_final_newline is 3: expected 0 or 1"},
        {offsetof(v4a_options, add_file_line_ending), 2,
         "v4a_options.add_file_line_ending is 2: expected V4A_LINE_ENDING_LF (0) or "
         "V4A_LINE_ENDING_CRLF (1)"},
        {offsetof(v4a_options, diff_style), 4,
         "v4a_options.diff_style is 4: expected V4A_DIFF_STYLE_NONE (0), V4A_DIFF_STYLE_FULL "
         "(1), V4A_DIFF_STYLE_CHANGES (2) or V4A_DIFF_STYLE_RUNS (3)"},
        {offsetof(v4a_options, refine), 2, "v4a_options.refine is 2: expected 0 or 1"},
        {offsetof(v4a_options, struct_size), 44,
         "v4a_options.struct_size is 44, but this library knows v4a_options of 72 bytes (or 48 "
         "from older headers): initialise the struct with v4a_options_init() and build against the library's "
         "v4a.h"},
        {offsetof(v4a_options, struct_size), 0, NULL},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
        memcpy((char *)&o + cases[i].offset, &cases[i].value, sizeof(uint32_t));
        r = apply("a\n", "@@\n-a\n+b\n", V4A_MODE_UPDATE, &o, V4A_STATUS_INVALID_ARGUMENT);
        e = error_of(r, V4A_STATUS_INVALID_ARGUMENT);
        if (e && cases[i].message) {
            CHECK_VIEW_STR(e->message, cases[i].message);
        }
        v4a_result_free(r);
    }
    /* the search budget must be positive */
    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    o.search_budget = 0;
    r = apply("a\n", "@@\n-a\n+b\n", V4A_MODE_UPDATE, &o, V4A_STATUS_INVALID_ARGUMENT);
    v4a_result_free(r);
    /* a diff_context is read only for V4A_DIFF_STYLE_CHANGES, and any value is valid */
    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    o.diff_context = UINT32_MAX;
    o.diff_style = V4A_DIFF_STYLE_CHANGES;
    r = apply("a\nb\n", "@@\n-a\n+c\n", V4A_MODE_UPDATE, &o, V4A_STATUS_OK);
    CHECK(v4a_result_diff(r).len == 3);
    v4a_result_free(r);

    /* A caller built against the header before the refinement limits (a 48-byte v4a_options)
     * is served: its fields are read, the limits are the defaults, no byte past 48 is read
     * (the bytes after it here are garbage on purpose); any other size is refused. */
    CHECK_STATUS(v4a_options_init(&o), V4A_STATUS_OK);
    o.struct_size = (uint32_t)offsetof(v4a_options, refine_max_graphemes);
    CHECK(o.struct_size == 48);
    o.diff_style = V4A_DIFF_STYLE_FULL;
    o.refine = 1;
    o.refine_max_graphemes = 0;
    o.refine_max_cost = 0;
    o.refine_max_pair_lines = 0;
    r = apply("ab cd\n", "@@\n-ab cd\n+ab ce\n", V4A_MODE_UPDATE, &o, V4A_STATUS_OK);
    CHECK(v4a_result_diff(r).len == 2 && v4a_result_segments(r).len > 2);
    v4a_result_free(r);
    o.struct_size = 40;
    r = apply("a\n", "@@\n-a\n+b\n", V4A_MODE_UPDATE, &o, V4A_STATUS_INVALID_ARGUMENT);
    v4a_result_free(r);

    CHECK_STATUS(v4a_generate_options_init(&g), V4A_STATUS_OK);
    g.struct_size = 8;
    CHECK_STATUS(v4a_make_patch(LIT("a\n"), LIT("b\n"), LIT("f"), &g, &t),
                 V4A_STATUS_INVALID_ARGUMENT);
    v4a_text_free(t);
}

/* The panic export, with stderr sent to /dev/null for the call: the caught panic's message is
 * expected (and test_leaks would print it ITERATIONS times). */
static v4a_status quiet_test_panic(void) {
    v4a_status s = V4A_STATUS_OK;
    int devnull = open("/dev/null", O_WRONLY);
    int saved = dup(2);
    CHECK(saved >= 0 && devnull >= 0);
    if (saved >= 0 && devnull >= 0) {
        fflush(stderr);
        dup2(devnull, 2);
        s = v4a_test_panic();
        dup2(saved, 2);
    }
    if (saved >= 0) {
        close(saved);
    }
    if (devnull >= 0) {
        close(devnull);
    }
    return s;
}

static void test_panic_boundary(void) {
#ifdef V4A_TEST_PANIC
    v4a_result *r;
    CHECK_STATUS(quiet_test_panic(), V4A_STATUS_INTERNAL);
    CHECK_STATUS(quiet_test_panic(), V4A_STATUS_INTERNAL);
    /* the library still works after a caught panic */
    r = apply("a\n", "@@\n-a\n+b\n", V4A_MODE_UPDATE, NULL, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "b\n");
    v4a_result_free(r);
#else
    fprintf(stderr, "test_api: built without V4A_TEST_PANIC; the panic export is not tested\n");
    CHECK(0);
#endif
}

/* Base-aware apply: the diff was written against the text the model saw (the base); the
 * file has changed since. */
#define BASE_TWICE "// header\nfn a() {\n    run(1);\n}\n"
#define CURRENT_TWICE "fn b() {\n    run(1);\n}\n// header\nfn a() {\n    run(1);\n}\n"
#define DIFF_TWICE "-    run(1);\n+    run(2);\n"
#define BASE_X "def f():\n    x = 1\n    return x\n"
#define CURRENT_X "def f():\n    x = 10\n    return x\n"
#define DIFF_X "@@ def f():\n-    x = 1\n+    x = 2\n"
#define CONFLICT_MESSAGE                                                                        \
    "hunk 1 (patch line 1) conflicts with a change made to the file since the model read it: " \
    "the lines it changes were also changed in the current file.\n"                            \
    "What the model saw (line 2):\n  |    x = 1\n"                                              \
    "What the file has now (line 2):\n  |    x = 10\n"                                          \
    "What the patch wanted (line 2):\n  |    x = 2\n"                                           \
    "Resend the hunk against the current lines shown above."

static v4a_result *apply_base(const char *source, const char *base, const char *diff,
                              uint32_t mode, v4a_status want) {
    v4a_result *r = NULL;
    CHECK_STATUS(v4a_apply_with_base((const uint8_t *)source, strlen(source),
                                     (const uint8_t *)base, strlen(base), (const uint8_t *)diff,
                                     strlen(diff), mode, NULL, &r),
                 want);
    CHECK(r != NULL && v4a_result_status(r) == want);
    return r;
}

static void test_apply_with_base(void) {
    v4a_result *r, *plain;
    v4a_hunk_reports h;
    const v4a_error *e;
    const uint8_t bad[] = {'a', '\n', 0xC3, '\n'};

    /* the hunk's lines now occur twice: ambiguous without the base, placed with it */
    plain = apply(CURRENT_TWICE, DIFF_TWICE, V4A_MODE_UPDATE, NULL, V4A_STATUS_AMBIGUOUS);
    v4a_result_free(plain);
    r = apply_base(CURRENT_TWICE, BASE_TWICE, DIFF_TWICE, V4A_MODE_UPDATE, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "fn b() {\n    run(1);\n}\n// header\nfn a() {\n    run(2);\n}\n");
    CHECK_VIEW(v4a_result_source(r), CURRENT_TWICE);
    h = v4a_result_hunks(r);
    CHECK(h.len == 1);
    if (h.len == 1) {
        CHECK(h.ptr[0].flags == V4A_HUNK_MERGED);
        CHECK(h.ptr[0].old_start == 6 && h.ptr[0].old_len == 1);
        CHECK(h.ptr[0].new_start == 6 && h.ptr[0].new_len == 1);
    }
    CHECK(v4a_result_changes(r).len == 1);
    v4a_result_free(r);

    /* drift above the hunk: carried down, ranges in the current text; mode move too */
    r = apply_base("import os\n" BASE_X, BASE_X, DIFF_X, V4A_MODE_UPDATE, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "import os\ndef f():\n    x = 2\n    return x\n");
    h = v4a_result_hunks(r);
    CHECK(h.len == 1 && (h.ptr[0].flags & V4A_HUNK_MERGED) && h.ptr[0].old_start == 3);
    v4a_result_free(r);

    /* a base equal to the source: exactly the plain apply, no merge flag */
    r = apply_base(BASE_X, BASE_X, DIFF_X, V4A_MODE_UPDATE, V4A_STATUS_OK);
    plain = apply(BASE_X, DIFF_X, V4A_MODE_UPDATE, NULL, V4A_STATUS_OK);
    CHECK(v4a_result_text(r).len == v4a_result_text(plain).len &&
          memcmp(v4a_result_text(r).ptr, v4a_result_text(plain).ptr,
                 v4a_result_text(r).len) == 0);
    h = v4a_result_hunks(r);
    CHECK(h.len == 1 && h.ptr[0].flags == 0 && h.ptr[0].old_start == 2);
    v4a_result_free(plain);
    v4a_result_free(r);

    /* the same lines changed on both sides: a conflict showing the three versions */
    r = apply_base(CURRENT_X, BASE_X, DIFF_X, V4A_MODE_UPDATE, V4A_STATUS_CONFLICT);
    e = error_of(r, V4A_STATUS_CONFLICT);
    if (e) {
        CHECK_VIEW(e->message, CONFLICT_MESSAGE);
        CHECK(e->candidates.len == 1 && e->candidates.ptr[0] == 2);
    }
    CHECK_VIEW(v4a_result_text(r), "");
    CHECK(v4a_result_hunks(r).len == 0);
    CHECK(strcmp(v4a_status_str(V4A_STATUS_CONFLICT), "CONFLICT") == 0);
    v4a_result_free(r);

    /* not in the base nor in the file: the error says the file changed */
    r = apply_base("a\nB\nc\nd\n", "a\nb\nc\n", "@@\n-x\n+y\n", V4A_MODE_UPDATE,
                   V4A_STATUS_CONTEXT_NOT_FOUND);
    e = error_of(r, V4A_STATUS_CONTEXT_NOT_FOUND);
    CHECK(e != NULL && view_contains(e->message, "The file changed since the model read it"));
    v4a_result_free(r);

    /* the base is checked as UTF-8 and named; create mode neither reads nor checks it */
    r = NULL;
    CHECK_STATUS(v4a_apply_with_base(LIT("a\n"), bad, sizeof bad, LIT("@@\n-a\n+b\n"),
                                     V4A_MODE_UPDATE, NULL, &r),
                 V4A_STATUS_INVALID_UTF8);
    e = error_of(r, V4A_STATUS_INVALID_UTF8);
    if (e) {
        CHECK_VIEW(e->input, "base");
        CHECK(e->byte_offset == 2);
    }
    v4a_result_free(r);
    r = NULL;
    CHECK_STATUS(v4a_apply_with_base(NULL, 0, bad, sizeof bad, LIT("+new\n"), V4A_MODE_CREATE,
                                     NULL, &r),
                 V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(r), "new\n");
    v4a_result_free(r);
    /* (NULL, 0) is an empty base (the model saw an empty file), not "no base": the line the
     * file gained since and the added line meet at the same place, a conflict, where the
     * plain apply appends */
    plain = apply("top\n", "@@\n+added\n", V4A_MODE_UPDATE, NULL, V4A_STATUS_OK);
    CHECK_VIEW(v4a_result_text(plain), "top\nadded\n");
    v4a_result_free(plain);
    r = NULL;
    CHECK_STATUS(v4a_apply_with_base(LIT("top\n"), NULL, 0, LIT("@@\n+added\n"),
                                     V4A_MODE_UPDATE, NULL, &r),
                 V4A_STATUS_CONFLICT);
    e = error_of(r, V4A_STATUS_CONFLICT);
    if (e) {
        CHECK_VIEW(e->message, "hunk 1 (patch line 1) conflicts with a change made to the file "
                               "since the model read it: the lines it changes were also changed "
                               "in the current file.\n"
                               "What the model saw (before line 1):\n  (no lines)\n"
                               "What the file has now (line 1):\n  |top\n"
                               "What the patch wanted (line 1):\n  |added\n"
                               "Resend the hunk against the current lines shown above.");
    }
    v4a_result_free(r);

    /* bad arguments: NULL with a length, a NULL out-pointer, a bad mode */
    r = NULL;
    CHECK_STATUS(v4a_apply_with_base(LIT("a\n"), NULL, 3, LIT("@@\n-a\n+b\n"), V4A_MODE_UPDATE,
                                     NULL, &r),
                 V4A_STATUS_NULL_ARGUMENT);
    e = error_of(r, V4A_STATUS_NULL_ARGUMENT);
    if (e) {
        CHECK_VIEW(e->message,
                   "base is NULL but its length is 3: pass (NULL, 0) for an empty input");
    }
    v4a_result_free(r);
    CHECK_STATUS(v4a_apply_with_base(LIT("a\n"), LIT("a\n"), LIT("@@\n-a\n+b\n"),
                                     V4A_MODE_UPDATE, NULL, NULL),
                 V4A_STATUS_NULL_ARGUMENT);
    r = NULL;
    CHECK_STATUS(v4a_apply_with_base(LIT("a\n"), LIT("a\n"), LIT("@@\n-a\n+b\n"), 7, NULL, &r),
                 V4A_STATUS_UNSUPPORTED_MODE);
    v4a_result_free(r);
}

#define BASES_PATCH                  \
    "*** Begin Patch\n"              \
    "*** Update File: a.py\n"        \
    DIFF_X                           \
    "*** Add File: new.txt\n"        \
    "+new\n"                         \
    "*** Update File: b.txt\n"       \
    "@@\n"                           \
    "-old\n"                         \
    "+new\n"                         \
    "*** End Patch\n"

static void set_text(v4a_source *s, const char *text) {
    s->ptr = (const uint8_t *)text;
    s->len = strlen(text);
    s->present = 1;
    s->reserved = 0;
}

static void test_patch_apply_with_bases(void) {
    v4a_patch *p = NULL;
    v4a_source sources[3], bases[3];
    v4a_result_set *set = NULL;
    v4a_file_results files;
    v4a_hunk_reports h;
    const v4a_error *e;

    CHECK_STATUS(v4a_patch_parse(LIT(BASES_PATCH), &p), V4A_STATUS_OK);
    memset(sources, 0, sizeof sources);
    memset(bases, 0, sizeof bases);
    set_text(&sources[0], "import os\n" BASE_X);
    set_text(&sources[2], "old\n");
    set_text(&bases[0], BASE_X);
    /* the base of b.txt is unknown (present = 0); the Add's entry is not read */
    bases[1].present = 1;
    bases[1].ptr = (const uint8_t *)"\xFF";
    bases[1].len = 1;

    CHECK_STATUS(v4a_patch_apply_with_bases(p, sources, 3, bases, 3, NULL, &set), V4A_STATUS_OK);
    files = v4a_result_set_files(set);
    CHECK(files.len == 3);
    if (files.len == 3) {
        CHECK_VIEW(v4a_result_text(files.ptr[0].result),
                   "import os\ndef f():\n    x = 2\n    return x\n");
        h = v4a_result_hunks(files.ptr[0].result);
        CHECK(h.len == 1 && h.ptr[0].flags == V4A_HUNK_MERGED && h.ptr[0].old_start == 3);
        CHECK_VIEW(v4a_result_text(files.ptr[1].result), "new\n");
        CHECK_VIEW(v4a_result_text(files.ptr[2].result), "new\n");
        h = v4a_result_hunks(files.ptr[2].result);
        CHECK(h.len == 1 && h.ptr[0].flags == 0);
    }
    CHECK_VIEW(v4a_result_set_summary(set), "Success. Updated the following files:\n"
                                            "M a.py\nA new.txt\nM b.txt\n");
    v4a_result_set_free(set);

    /* a conflict in one file: nothing is applied, the error names the file */
    set = NULL;
    set_text(&sources[0], CURRENT_X);
    CHECK_STATUS(v4a_patch_apply_with_bases(p, sources, 3, bases, 3, NULL, &set),
                 V4A_STATUS_CONFLICT);
    CHECK(v4a_result_set_files(set).len == 0);
    e = v4a_result_set_error(set);
    CHECK(e != NULL);
    if (e) {
        CHECK_STATUS(e->status, V4A_STATUS_CONFLICT);
        CHECK_VIEW(e->path, "a.py");
        CHECK(view_contains(e->message, "What the file has now (line 2):\n  |    x = 10\n"));
    }
    v4a_result_set_free(set);

    /* every base unknown: as v4a_patch_apply (x = 1 is no longer in a.py: not found) */
    set = NULL;
    memset(bases, 0, sizeof bases);
    CHECK_STATUS(v4a_patch_apply_with_bases(p, sources, 3, bases, 3, NULL, &set),
                 V4A_STATUS_CONTEXT_NOT_FOUND);
    v4a_result_set_free(set);

    /* bad base arrays */
    set = NULL;
    CHECK_STATUS(v4a_patch_apply_with_bases(p, sources, 3, bases, 2, NULL, &set),
                 V4A_STATUS_INVALID_ARGUMENT);
    e = v4a_result_set_error(set);
    CHECK(e != NULL && view_contains(e->message, "3 operations but 2 bases"));
    v4a_result_set_free(set);
    set = NULL;
    CHECK_STATUS(v4a_patch_apply_with_bases(p, sources, 3, NULL, 3, NULL, &set),
                 V4A_STATUS_NULL_ARGUMENT);
    e = v4a_result_set_error(set);
    CHECK(e != NULL && view_contains(e->message, "bases is NULL but its length is 3"));
    v4a_result_set_free(set);
    set = NULL;
    bases[2].present = 2;
    CHECK_STATUS(v4a_patch_apply_with_bases(p, sources, 3, bases, 3, NULL, &set),
                 V4A_STATUS_INVALID_ARGUMENT);
    e = v4a_result_set_error(set);
    CHECK(e != NULL && view_equals(e->message, "bases[2].present is 2: expected 0 or 1", 38));
    v4a_result_set_free(set);
    set = NULL;
    set_text(&sources[0], "import os\n" BASE_X);
    bases[2].present = 1;
    bases[2].ptr = (const uint8_t *)"x\xFF\n";
    bases[2].len = 3;
    CHECK_STATUS(v4a_patch_apply_with_bases(p, sources, 3, bases, 3, NULL, &set),
                 V4A_STATUS_INVALID_UTF8);
    e = v4a_result_set_error(set);
    CHECK(e != NULL && view_equals(e->input, "base", 4) && view_equals(e->path, "b.txt", 5));
    v4a_result_set_free(set);
    set = NULL;
    CHECK_STATUS(v4a_patch_apply_with_bases(p, sources, 2, bases, 3, NULL, &set),
                 V4A_STATUS_INVALID_ARGUMENT);
    e = v4a_result_set_error(set);
    CHECK(e != NULL && view_contains(e->message, "3 operations but 2 sources"));
    v4a_result_set_free(set);
    CHECK_STATUS(v4a_patch_apply_with_bases(p, sources, 3, bases, 3, NULL, NULL),
                 V4A_STATUS_NULL_ARGUMENT);
    set = NULL;
    CHECK_STATUS(v4a_patch_apply_with_bases(NULL, NULL, 0, NULL, 0, NULL, &set),
                 V4A_STATUS_NULL_ARGUMENT);
    CHECK(set != NULL && view_equals(v4a_result_set_error(set)->message, "patch is NULL", 13));
    v4a_result_set_free(set);
    v4a_patch_free(p);
}

/* The workspace layer on a real directory (test_workspace.c has the attacks and the crash
 * trials): an Add and then a Delete (so the directory is back as it was), each as a dry run and
 * for real, with every accessor read; a refused path, a recovery with nothing to do, an I/O
 * error, bad options and the NULL handle accessors. Disk I/O with fsync: test_leaks, which
 * runs every section many times, does this round only on its first and every 500th call. */
static void read_workspace_result(const v4a_workspace_result *r) {
    v4a_workspace_files files = v4a_workspace_result_files(r);
    v4a_bytes_list rec = v4a_workspace_result_recovered(r);
    size_t i, sum = 0;
    sum += v4a_workspace_result_error(r) != NULL;
    sum += (size_t)v4a_workspace_result_failure(r) + v4a_workspace_result_needs_recovery(r);
    sum += v4a_workspace_result_written(r) + v4a_workspace_result_summary(r).len;
    sum += v4a_workspace_result_notes(r).len + (size_t)v4a_workspace_result_recovery(r);
    for (i = 0; i < files.len; i++) {
        sum += v4a_result_text(files.ptr[i].result).len + files.ptr[i].path.len;
    }
    CHECK(rec.len == 0 && sum < SIZE_MAX);
}

static void test_workspace_round(void) {
    static const char add[] = "*** Begin Patch\n*** Add File: d/x.txt\n+x\n*** End Patch\n";
    static const char del[] = "*** Begin Patch\n*** Delete File: d/x.txt\n*** End Patch\n";
    static const char bad[] = "*** Begin Patch\n*** Add File: ../x.txt\n+x\n*** End Patch\n";
    static long calls = 0;
    const char *texts[3] = {add, del, bad};
    v4a_status want[3] = {V4A_STATUS_OK, V4A_STATUS_OK, V4A_STATUS_UNSAFE_PATH};
    char root[] = "/tmp/v4a-c-api-XXXXXX", d[sizeof root + 2];
    v4a_workspace_options o;
    v4a_options engine = V4A_OPTIONS_INIT;
    v4a_workspace_result *r = NULL;
    v4a_patch *p = NULL;
    size_t k, n;
    if (calls++ % 500 != 0) {
        return;
    }
    CHECK(mkdtemp(root) != NULL);
    n = strlen(root);
    CHECK_STATUS(v4a_workspace_options_init(&o), V4A_STATUS_OK);
    engine.diff_style = V4A_DIFF_STYLE_FULL;
    o.engine = &engine;
    for (k = 0; k < 3; k++) {
        CHECK_STATUS(v4a_patch_parse((const uint8_t *)texts[k], strlen(texts[k]), &p), V4A_STATUS_OK);
        for (o.dry_run = 1;; o.dry_run = 0) {
            CHECK_STATUS(v4a_workspace_apply((const uint8_t *)root, n, p, NULL, 0, &o, &r), want[k]);
            CHECK(v4a_workspace_result_status(r) == want[k]);
            read_workspace_result(r);
            v4a_workspace_result_free(r);
            if (!o.dry_run) {
                break;
            }
        }
        v4a_patch_free(p);
    }
    CHECK_STATUS(v4a_workspace_recover((const uint8_t *)root, n, &r), V4A_STATUS_OK);
    read_workspace_result(r);
    v4a_workspace_result_free(r);
    CHECK_STATUS(v4a_workspace_recover(LIT("/nonexistent/v4a/root"), &r), V4A_STATUS_IO_ERROR);
    read_workspace_result(r);
    v4a_workspace_result_free(r);
    o.dry_run = 2;
    CHECK_STATUS(v4a_workspace_apply((const uint8_t *)root, n, NULL, NULL, 0, &o, &r),
                 V4A_STATUS_NULL_ARGUMENT);
    v4a_workspace_result_free(r);
    CHECK_STATUS(v4a_patch_parse(LIT(add), &p), V4A_STATUS_OK);
    CHECK_STATUS(v4a_workspace_apply((const uint8_t *)root, n, p, NULL, 0, &o, &r),
                 V4A_STATUS_INVALID_ARGUMENT);
    read_workspace_result(r);
    v4a_workspace_result_free(r);
    v4a_patch_free(p);
    CHECK_STATUS(v4a_workspace_result_status(NULL), V4A_STATUS_NULL_ARGUMENT);
    read_workspace_result(NULL);
    v4a_workspace_result_free(NULL);
    /* The Add/Delete pair left the directory d/ behind. */
    snprintf(d, sizeof d, "%s/d", root);
    CHECK(rmdir(d) == 0 && rmdir(root) == 0);
}

/* The sections, each a CTest test of its own (c_api_<name>, tests/c/CMakeLists.txt lists
 * them): `test_api NAME` runs one, `test_api` all of them; test_leaks runs all, many times. */
const api_section API_SECTIONS[] = {
    {"versions", {test_versions_and_statuses, test_options_defaults, test_static_initializers}},
    {"apply",
     {test_apply_update_full_diff, test_apply_changes_only_diff, test_fidelity_and_report_flags,
      test_modes}},
    {"diagnostics", {test_diagnostics, test_invalid_utf8}},
    {"multi_file", {test_multi_file, test_classify_path}},
    {"base", {test_apply_with_base, test_patch_apply_with_bases}},
    {"workspace", {test_workspace_round}},
    {"refinement", {test_refinement}},
    {"refine_lines", {refine_cases, line_diff_cases}},
    {"generation", {test_generation_round_trip, test_tools}},
    {"bad_inputs",
     {test_null_everywhere, test_zero_length_inputs, test_out_of_range_options,
      test_panic_boundary}},
};

const size_t API_SECTION_COUNT = sizeof API_SECTIONS / sizeof API_SECTIONS[0];

void api_run_section(const api_section *section) {
    size_t k;
    for (k = 0; k < 4 && section->tests[k] != NULL; k++) {
        section->tests[k]();
    }
}

#ifndef V4A_API_NO_MAIN
int main(int argc, char **argv) {
    size_t i, ran = 0;
    for (i = 0; i < API_SECTION_COUNT; i++) {
        if (argc > 1 && strcmp(argv[1], API_SECTIONS[i].name) != 0) {
            continue;
        }
        api_run_section(&API_SECTIONS[i]);
        ran++;
    }
    if (ran == 0) {
        fprintf(stderr, "test_api: unknown section \"%s\"; the sections are:", argv[1]);
        for (i = 0; i < API_SECTION_COUNT; i++) {
            fprintf(stderr, " %s", API_SECTIONS[i].name);
        }
        fputc('\n', stderr);
        return 2;
    }
    return check_report(argc > 1 ? argv[1] : "test_api");
}
#endif /* V4A_API_NO_MAIN */
