/*
 * C glue of the Go binding: the ABI version check, and helpers that read every view of a
 * result in one call (one cgo transition instead of ten). Included by every cgo file.
 */
#ifndef V4A_GO_H
#define V4A_GO_H

#include <stddef.h>
#include <stdint.h>

/* The header comes from the installed library (pkg-config's Cflags) or, with the build tag
 * v4a_intree, from include/ in the repository. */
#if defined(__has_include)
#if !__has_include("v4a.h")
#error "v4a Go binding: v4a.h not found: install libv4a (cmake --install) and set PKG_CONFIG_PATH to $PREFIX/lib/pkgconfig, or build inside the repository with -tags v4a_intree (see the README's Go section)"
#endif
#endif
#include "v4a.h"

/* The ABI version this binding was written against; keep in step with ABIVersion
 * (version.go). */
#if !defined(V4A_ABI_VERSION) || V4A_ABI_VERSION != 2
#error "v4a Go binding: v4a.h has an ABI version this binding does not know (it expects V4A_ABI_VERSION 2): update bindings/go or use the matching v4a.h"
#endif

/* Every view of a result. */
typedef struct v4a_go_views {
    v4a_status status;
    uint32_t fuzz;
    const v4a_error *error;
    v4a_bytes text;
    v4a_bytes source;
    v4a_bytes path;
    v4a_bytes destination;
    v4a_hunk_reports hunks;
    v4a_diff_lines diff;
    v4a_segments segments;
    v4a_changes changes;
} v4a_go_views;

/* Reads every view of a result. */
static inline void v4a_go_read(const v4a_result *r, v4a_go_views *v) {
    v->status = v4a_result_status(r);
    v->error = v4a_result_error(r);
    v->fuzz = v4a_result_fuzz(r);
    v->text = v4a_result_text(r);
    v->source = v4a_result_source(r);
    v->path = v4a_result_path(r);
    v->destination = v4a_result_destination(r);
    v->hunks = v4a_result_hunks(r);
    v->diff = v4a_result_diff(r);
    v->segments = v4a_result_segments(r);
    v->changes = v4a_result_changes(r);
}

/* v4a_apply, then every view of the result (when there is one). */
static inline v4a_status v4a_go_apply(const uint8_t *source, size_t source_len,
                                      const uint8_t *diff, size_t diff_len, uint32_t mode,
                                      const v4a_options *options, v4a_result **out,
                                      v4a_go_views *views) {
    v4a_status s = v4a_apply(source, source_len, diff, diff_len, mode, options, out);
    if (*out != NULL) {
        v4a_go_read(*out, views);
    }
    return s;
}

/* v4a_apply_mode_name, then every view of the result (when there is one). */
static inline v4a_status v4a_go_apply_mode_name(const uint8_t *source, size_t source_len,
                                                const uint8_t *diff, size_t diff_len,
                                                const uint8_t *mode, size_t mode_len,
                                                const v4a_options *options, v4a_result **out,
                                                v4a_go_views *views) {
    v4a_status s = v4a_apply_mode_name(source, source_len, diff, diff_len, mode, mode_len,
                                       options, out);
    if (*out != NULL) {
        v4a_go_read(*out, views);
    }
    return s;
}

#endif /* V4A_GO_H */
