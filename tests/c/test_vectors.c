/*
 * Runs every shared test vector of tests/vectors/ through the C API, reading the files from
 * disk, with the semantics of the Rust runner (tests/vectors.rs; the format is described in
 * tests/vectors/README.md): `mode` cases through v4a_apply_mode_name, the others through
 * v4a_patch_parse + v4a_patch_apply (v4a_patch_apply_with_bases when the case has base/), with
 * the case's `options`; the outcome rendered in the canonical form and compared byte for byte
 * with the `outcome` file, and the whole after-state with `after/` (support/vectors.c).
 *
 * Usage: test_vectors VECTORS_DIR [NAME_SUBSTRING]
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/vectors.h"
#include "v4a.h"

/* The smallest number of vectors the suite may hold (as the Rust runner). */
#define MIN_VECTORS 150

/* Runs one case folder; fills `report` with the problems (empty = passed). */
static void run_case(const char *dir, buf *report) {
    vector_case c;
    v4a_result *single = NULL;
    v4a_patch *parsed = NULL;
    v4a_result_set *set = NULL;

    if (!vector_read(&c, dir, report)) {
        goto done;
    }
    if (c.mode != NULL) {
        /* The single-file API: the first file of before/ is the source. */
        const uint8_t *src = c.before.len ? c.before.items[0].data : NULL;
        size_t src_len = c.before.len ? c.before.items[0].len : 0;
        v4a_status s = v4a_apply_mode_name(src, src_len, (const uint8_t *)c.patch.ptr, c.patch.len,
                                           (const uint8_t *)c.mode, strlen(c.mode), &c.options,
                                           &single);
        if (single == NULL || v4a_result_status(single) != s) {
            buf_printf(report, "  v4a_apply_mode_name returned %s without a consistent result\n",
                       v4a_status_str(s));
            goto done;
        }
        vector_check_result(&c, single, report);
    } else {
        if (v4a_patch_parse((const uint8_t *)c.patch.ptr, c.patch.len, &parsed) ==
            V4A_STATUS_OK) {
            size_t n = v4a_patch_ops(parsed).len;
            v4a_source *sources = sources_from(parsed, &c.before);
            if (c.has_base) {
                /* base/: the files as the model saw them, aligned with the operations */
                v4a_source *bases = sources_from(parsed, &c.base);
                v4a_patch_apply_with_bases(parsed, sources, n, bases, n, &c.options, &set);
                free(bases);
            } else {
                v4a_patch_apply(parsed, sources, n, &c.options, &set);
            }
            free(sources);
        }
        vector_check_set(&c, parsed, set, report);
    }

done:
    v4a_result_free(single);
    v4a_result_set_free(set);
    v4a_patch_free(parsed);
    vector_free(&c);
}

int main(int argc, char **argv) {
    char **names;
    int n, i, passed = 0, failed = 0, ran = 0;
    buf failures = {NULL, 0, 0};
    const char *filter = argc > 2 ? argv[2] : getenv("V4A_VECTOR");
    if (argc < 2) {
        fprintf(stderr, "usage: %s VECTORS_DIR [NAME_SUBSTRING]\n", argv[0]);
        return 2;
    }
    if (v4a_abi_version() != V4A_ABI_VERSION) {
        fprintf(stderr, "test_vectors: the library's ABI %u is not the header's %u\n",
                (unsigned)v4a_abi_version(), (unsigned)V4A_ABI_VERSION);
        return 2;
    }
    n = list_dir(argv[1], &names);
    if (n < 0) {
        fprintf(stderr, "test_vectors: cannot read %s\n", argv[1]);
        return 2;
    }
    for (i = 0; i < n; i++) {
        char *dir = path_join(argv[1], names[i]);
        buf report = {NULL, 0, 0};
        if (!is_dir(dir) || (filter && filter[0] && strstr(names[i], filter) == NULL)) {
            free(dir);
            continue;
        }
        ran++;
        run_case(dir, &report);
        if (report.len == 0) {
            passed++;
        } else {
            failed++;
            buf_printf(&failures, "\n--- %s\n", names[i]);
            buf_add(&failures, report.ptr, report.len);
        }
        free(report.ptr);
        free(dir);
    }
    free_names(names, n);
    if (failures.len) {
        fputs(failures.ptr, stderr);
    }
    free(failures.ptr);
    if (!(filter && filter[0]) && ran < MIN_VECTORS) {
        fprintf(stderr, "test_vectors: %s holds %d cases; at least %d are required\n", argv[1],
                ran, MIN_VECTORS);
        failed++;
    }
    printf("test_vectors: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
