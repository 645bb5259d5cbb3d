/*
 * The shared test vectors of tests/vectors/ for the C tests (support library,
 * tests/c/support/; the format is tests/vectors/README.md): a case folder read into a
 * vector_case, a result rendered in the canonical form of the `outcome` file, and the checks
 * of a case on a result or a result set: the rendered outcome compared byte for byte with the
 * `outcome` file, the files after with `after/`.
 *
 * Problems are written into a report buffer, one "  ...\n" line each (empty = passed).
 */
#ifndef V4A_TEST_VECTORS_H
#define V4A_TEST_VECTORS_H

#include "buffer.h"
#include "files.h"
#include "v4a.h"

typedef struct {
    buf patch;
    file_map before, after;
    file_map base;  /* base/: the files as the model saw them */
    int has_after;  /* the folder has after/ */
    int has_base;   /* the folder has base/ (apply with v4a_patch_apply_with_bases) */
    buf outcome;    /* the `outcome` file (ptr NULL when absent) */
    char *mode;     /* the `mode` word; NULL for a multi-file case */
    v4a_options options;
} vector_case;

/* Reads a case folder. Returns 0, with a report, for a case that cannot be run; an unknown
 * entry is reported too, but the case is read. Free it with vector_free in either case. */
int vector_read(vector_case *c, const char *dir, buf *report);
void vector_free(vector_case *c);

/* The canonical form of an error (`status:` ... ) and of one result's fuzz and hunk lines,
 * each line prefixed with `indent`. */
void vector_render_error(buf *out, const v4a_error *e);
void vector_render_hunks(buf *out, const char *indent, const v4a_result *r);

/* The canonical outcome of a mode case's single-file result, and of a multi-file case's
 * parsed patch and (when it parsed) result set, with its after-state. */
void vector_render_result(buf *out, const v4a_result *r);
void vector_render_set(buf *out, const v4a_patch *p, const v4a_result_set *set,
                       const file_map *after);

/* The checks of a mode case on its single-file result, and of a multi-file case on its
 * parsed patch and, when that parsed, its result set. */
void vector_check_result(const vector_case *c, const v4a_result *r, buf *report);
void vector_check_set(const vector_case *c, const v4a_patch *p, const v4a_result_set *set,
                      buf *report);

/* Applies the file results of a set to a copy of `from` (the README's after-state). */
void after_state(const v4a_result_set *set, const file_map *from, file_map *out);

/* Sources for a parsed patch, taken from a file map (Add File entries absent); one per
 * operation, to free. */
v4a_source *sources_from(const v4a_patch *p, const file_map *files);

#endif /* V4A_TEST_VECTORS_H */
