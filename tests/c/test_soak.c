/*
 * Concurrency soak through the C ABI. THREADS threads each run ITERATIONS jobs over the shared
 * test vectors of tests/vectors/, every job on a vector picked by the thread's own seeded
 * PRNG: single-file applies (v4a_apply and v4a_apply_mode_name, successes and failures),
 * multi-file patches (parsed by the job, or parsed once by main and applied by every thread at
 * once), reverse patches and generated patches. Each job publishes its handle into a shared
 * pool; other threads take references to the handles of the pool, read every view of them
 * (text, source, paths, hunk reports, structured diff, segments, edit script, summary, file
 * results, operations, error message and diagnostics, unified diff) while their producer and
 * other readers may read them too, and the thread that drops the last reference, usually not
 * the producer, checks the handle once more and frees it.
 *
 * Every handle is checked in full, not only for not crashing: main computes, single-threaded
 * and before any thread starts, one reference per vector and job kind, checks it against the
 * vector (after/ byte for byte, its `outcome` file, a generated patch applying
 * back, a reverse patch restoring before/), and keeps a dump of every view. A handle read by a
 * thread must give exactly that dump, and its texts must be the files of after/.
 *
 * Vectors larger than SOAK_MAX_VECTOR_BYTES (patch and sources: the three of 150 to 630 KB)
 * are left out of the pool; test_vectors runs them. With them, a third of the time went to
 * 1% of the jobs (9 s instead of 6 s natively, 40 s instead of 14 s under helgrind).
 *
 * Usage: test_soak VECTORS_DIR [THREADS [ITERATIONS [SEED]]]   (defaults 8, 100000, 1)
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "support/buffer.h"
#include "support/files.h"
#include "support/vectors.h"
#include "v4a.h"

#define SOAK_MAX_VECTOR_BYTES 16384
#define POOL_SIZE 512
#define VARIANTS 3
#define MAX_PRINTED_FAILURES 20

static double seconds_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ----------------------------------------------------------------------------------------
 * Dumps: every view of a handle, written into a buffer. Two handles are equal when their
 * dumps are; a dump is printable enough to show where two differ.
 */

static void dump_u64(buf *b, char tag, uint64_t v) {
    char tmp[24];
    int i = (int)sizeof tmp;
    tmp[--i] = ' ';
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    tmp[--i] = tag;
    buf_add(b, tmp + i, sizeof tmp - (size_t)i);
}

/* A view: absent, or its length, its bytes and the byte after them (the NUL). */
static void dump_bytes(buf *b, char tag, v4a_bytes v) {
    if (v.ptr == NULL) {
        dump_u64(b, tag, v.len);
        buf_add(b, "absent\n", 7);
        return;
    }
    dump_u64(b, tag, v.len);
    buf_add(b, "[", 1);
    buf_add(b, v.ptr, v.len);
    buf_add(b, "]", 1);
    dump_u64(b, '/', v.ptr[v.len]);
    buf_add(b, "\n", 1);
}

static void dump_error(buf *b, const v4a_error *e) {
    size_t i;
    uint64_t similarity;
    if (e == NULL) {
        buf_add(b, "no error\n", 9);
        return;
    }
    memcpy(&similarity, &e->closest_similarity, sizeof similarity);
    buf_str(b, "error ");
    buf_str(b, v4a_status_str(e->status));
    dump_u64(b, 's', e->status);
    dump_u64(b, 'l', e->patch_line);
    dump_u64(b, 'h', e->hunk);
    dump_u64(b, 'c', e->closest_start);
    dump_u64(b, '-', e->closest_end);
    dump_u64(b, 'r', e->reserved);
    dump_u64(b, '~', similarity);
    dump_u64(b, '@', e->byte_offset);
    buf_add(b, "\n", 1);
    dump_bytes(b, 'M', e->message);
    dump_bytes(b, 'P', e->path);
    dump_bytes(b, 'I', e->input);
    dump_bytes(b, 'S', e->suggestion);
    dump_bytes(b, 'C', e->corrected_hunk);
    dump_u64(b, 'N', e->candidates.len);
    dump_u64(b, '^', e->candidates.ptr == NULL);
    for (i = 0; i < e->candidates.len; i++) {
        dump_u64(b, ',', e->candidates.ptr[i]);
    }
    buf_add(b, "\n", 1);
}

static void dump_result(buf *b, const v4a_result *r) {
    v4a_hunk_reports hunks = v4a_result_hunks(r);
    v4a_diff_lines lines = v4a_result_diff(r);
    v4a_segments segs = v4a_result_segments(r);
    v4a_changes changes = v4a_result_changes(r);
    size_t i, k;
    buf_str(b, "result");
    dump_u64(b, ' ', v4a_result_status(r));
    buf_add(b, "\n", 1);
    dump_error(b, v4a_result_error(r));
    dump_bytes(b, 'T', v4a_result_text(r));
    dump_bytes(b, 'O', v4a_result_source(r));
    dump_bytes(b, 'P', v4a_result_path(r));
    dump_bytes(b, 'D', v4a_result_destination(r));
    dump_u64(b, 'F', v4a_result_fuzz(r));
    dump_u64(b, 'H', hunks.len);
    dump_u64(b, '^', hunks.ptr == NULL);
    buf_add(b, "\n", 1);
    for (i = 0; i < hunks.len; i++) {
        const v4a_hunk_report *h = &hunks.ptr[i];
        dump_u64(b, 'o', h->old_start);
        dump_u64(b, '+', h->old_len);
        dump_u64(b, 'n', h->new_start);
        dump_u64(b, '+', h->new_len);
        dump_u64(b, 'v', h->level);
        dump_u64(b, 'f', h->fuzz);
        dump_u64(b, 'c', h->candidates);
        dump_u64(b, 'x', h->flags);
        dump_u64(b, 'l', h->patch_line);
        dump_u64(b, 'r', h->reserved);
        dump_u64(b, 'L', h->line_levels.len);
        for (k = 0; k < h->line_levels.len; k++) {
            dump_u64(b, ',', h->line_levels.ptr[k]);
        }
        buf_add(b, "\n", 1);
    }
    dump_u64(b, 'L', lines.len);
    dump_u64(b, '^', lines.ptr == NULL);
    buf_add(b, "\n", 1);
    for (i = 0; i < lines.len; i++) {
        const v4a_diff_line *d = &lines.ptr[i];
        dump_u64(b, 'k', d->kind);
        dump_u64(b, 'h', d->hunk);
        dump_u64(b, 'o', d->old_line);
        dump_u64(b, 'n', d->new_line);
        dump_u64(b, 's', d->segment_start);
        dump_u64(b, '+', d->segment_count);
        dump_bytes(b, 't', d->text);
    }
    dump_u64(b, 'G', segs.len);
    dump_u64(b, '^', segs.ptr == NULL);
    for (i = 0; i < segs.len; i++) {
        dump_u64(b, 'k', segs.ptr[i].kind);
        dump_u64(b, 'r', segs.ptr[i].reserved);
        dump_u64(b, '[', segs.ptr[i].start);
        dump_u64(b, ')', segs.ptr[i].end);
    }
    buf_add(b, "\n", 1);
    dump_u64(b, 'C', changes.len);
    dump_u64(b, '^', changes.ptr == NULL);
    for (i = 0; i < changes.len; i++) {
        dump_u64(b, 'o', changes.ptr[i].old_start);
        dump_u64(b, '+', changes.ptr[i].old_len);
        dump_u64(b, 'n', changes.ptr[i].new_start);
        dump_u64(b, '+', changes.ptr[i].new_len);
        dump_u64(b, 'h', changes.ptr[i].hunk);
    }
    buf_add(b, "\n", 1);
}

static void dump_result_set(buf *b, const v4a_result_set *set) {
    v4a_file_results files = v4a_result_set_files(set);
    size_t i;
    buf_str(b, "result set");
    dump_u64(b, ' ', v4a_result_set_status(set));
    buf_add(b, "\n", 1);
    dump_error(b, v4a_result_set_error(set));
    dump_bytes(b, 'S', v4a_result_set_summary(set));
    dump_u64(b, 'N', files.len);
    dump_u64(b, '^', files.ptr == NULL);
    buf_add(b, "\n", 1);
    for (i = 0; i < files.len; i++) {
        const v4a_file_result *f = &files.ptr[i];
        dump_u64(b, 'k', f->kind);
        dump_u64(b, 'r', f->reserved);
        dump_u64(b, '?', f->result == NULL);
        buf_add(b, "\n", 1);
        dump_bytes(b, 'P', f->path);
        dump_bytes(b, 'M', f->move_to);
        dump_result(b, f->result);
    }
}

static void dump_patch(buf *b, const v4a_patch *p) {
    v4a_ops ops = v4a_patch_ops(p);
    size_t i;
    buf_str(b, "patch");
    dump_u64(b, ' ', v4a_patch_status(p));
    buf_add(b, "\n", 1);
    dump_error(b, v4a_patch_error(p));
    dump_u64(b, 'N', ops.len);
    dump_u64(b, '^', ops.ptr == NULL);
    buf_add(b, "\n", 1);
    for (i = 0; i < ops.len; i++) {
        const v4a_op *op = &ops.ptr[i];
        dump_u64(b, 'k', op->kind);
        dump_u64(b, 'c', op->path_class);
        dump_u64(b, 'm', op->move_to_class);
        dump_u64(b, 'l', op->patch_line);
        dump_u64(b, 'h', op->hunk_count);
        dump_u64(b, 'r', op->reserved);
        buf_add(b, "\n", 1);
        dump_bytes(b, 'P', op->path);
        dump_bytes(b, 'M', op->move_to);
    }
}

static void dump_text(buf *b, const v4a_text *t) {
    buf_str(b, "text");
    dump_u64(b, ' ', v4a_text_status(t));
    buf_add(b, "\n", 1);
    dump_error(b, v4a_text_error(t));
    dump_bytes(b, 'B', v4a_text_bytes(t));
}

/* ----------------------------------------------------------------------------------------
 * The vectors and their references.
 */

enum { ITEM_RESULT, ITEM_SET, ITEM_PATCH, ITEM_TEXT };
static const char *const ITEM_NAMES[] = {"result", "result set", "patch", "text"};

typedef struct {
    char *name;
    vector_case c; /* the case folder, read by support/vectors.c */
    int mode_known;
    uint32_t mode_value;
    v4a_options options[VARIANTS]; /* the vector's options, then two variants */
    /* multi-file: the patch parsed by main (shared by every thread) and its sources */
    v4a_patch *shared_patch;
    v4a_source *sources;
    size_t n_sources;
    /* the expected text of each file result (or of the single result) on success */
    v4a_bytes *want_text;
    size_t n_want;
    int succeeds;
    /* references: dumps of what every handle made from this vector must give */
    buf ref_apply[VARIANTS];
    buf ref_patch;   /* multi: the parsed patch */
    buf ref_reverse; /* multi, parsed: v4a_patch_reverse (variant 0 options) */
    buf ref_make;    /* single update success: v4a_make_patch(source, after) */
    buf *ref_unified; /* one per file result (n_want), v4a_result_unified_diff(.., 2) */
    int can_reverse, can_make;
} vec_t;

static vec_t *vectors;
static size_t n_vectors;
static size_t *pool_vectors; /* the indices of the vectors the threads pick from */
static size_t n_pool_vectors;

static size_t vector_bytes(const vec_t *v) {
    size_t n = v->c.patch.len, i;
    for (i = 0; i < v->c.before.len; i++) {
        n += v->c.before.items[i].len;
    }
    return n;
}

static void free_vector(vec_t *v) {
    int k;
    size_t i;
    free(v->name);
    vector_free(&v->c);
    v4a_patch_free(v->shared_patch);
    free(v->sources);
    free(v->want_text);
    for (k = 0; k < VARIANTS; k++) {
        free(v->ref_apply[k].ptr);
    }
    free(v->ref_patch.ptr);
    free(v->ref_reverse.ptr);
    free(v->ref_make.ptr);
    for (i = 0; v->ref_unified != NULL && i < (v->n_want ? v->n_want : 1); i++) {
        free(v->ref_unified[i].ptr);
    }
    free(v->ref_unified);
}

static const char *const MODE_NAMES[] = {"update", "create", "delete", "move"};

/* A problem found while loading (a bad vector, or a reference that does not match it). */
static int load_failures;

static void load_fail(const vec_t *v, const char *what, const char *detail) {
    load_failures++;
    fprintf(stderr, "test_soak: %s: %s%s%s\n", v->name, what, detail ? ": " : "",
            detail ? detail : "");
}

/* The report of the vector's checks (support/vectors.c): a problem when it is not empty. */
static void load_report(const vec_t *v, const char *what, buf *report) {
    if (report->len) {
        load_failures++;
        fprintf(stderr, "test_soak: %s: %s\n%s", v->name, what, report->ptr);
    }
    free(report->ptr);
    memset(report, 0, sizeof *report);
}

static void ref_text(buf *out, v4a_status s, v4a_text *t) {
    if (t == NULL || v4a_text_status(t) != s) {
        buf_str(out, "a text handle inconsistent with its status\n");
    } else {
        dump_text(out, t);
    }
}

/* A single-file case: the reference results of the three option variants, checked against
 * the vector; the generated patch and the unified diff. */
static void load_single(vec_t *v) {
    const uint8_t *src = v->c.before.len ? v->c.before.items[0].data : NULL;
    size_t src_len = v->c.before.len ? v->c.before.items[0].len : 0;
    buf report = {NULL, 0, 0};
    int k;
    v->n_want = 1;
    v->want_text = (v4a_bytes *)xrealloc(NULL, sizeof(v4a_bytes));
    v->want_text[0].ptr = (const uint8_t *)"";
    v->want_text[0].len = 0;
    if (v->c.after.len) {
        v->want_text[0].ptr = v->c.after.items[0].data;
        v->want_text[0].len = v->c.after.items[0].len;
    }
    v->ref_unified = (buf *)xrealloc(NULL, sizeof(buf));
    memset(v->ref_unified, 0, sizeof(buf));
    for (k = 0; k < VARIANTS; k++) {
        v4a_result *r = NULL;
        v4a_status s = v4a_apply_mode_name(src, src_len, (const uint8_t *)v->c.patch.ptr,
                                           v->c.patch.len, (const uint8_t *)v->c.mode,
                                           strlen(v->c.mode), &v->options[k], &r);
        if (r == NULL || v4a_result_status(r) != s) {
            load_fail(v, "v4a_apply_mode_name gave no consistent result", NULL);
            v4a_result_free(r);
            return;
        }
        dump_result(&v->ref_apply[k], r);
        if (k == 0) {
            v4a_text *t = NULL;
            v4a_status us = v4a_result_unified_diff(r, 2, &t);
            ref_text(&v->ref_unified[0], us, t);
            v4a_text_free(t);
        }
        v->succeeds = s == V4A_STATUS_OK;
        vector_check_result(&v->c, r, &report);
        load_report(v, "the reference fails the vector's checks", &report);
        v4a_result_free(r);
    }
    /* a generated patch from the source to after/ applies back to after/ */
    if (v->succeeds && v->mode_known && v->mode_value == V4A_MODE_UPDATE) {
        v4a_text *t = NULL;
        v4a_status s = v4a_make_patch(src, src_len, v->want_text[0].ptr, v->want_text[0].len,
                                      (const uint8_t *)"f", 1, NULL, &t);
        ref_text(&v->ref_make, s, t);
        v->can_make = 1;
        if (s == V4A_STATUS_OK && src_len == v->want_text[0].len &&
            (src_len == 0 || memcmp(src, v->want_text[0].ptr, src_len) == 0)) {
            /* nothing changed: an empty envelope */
            if (!view_equals(v4a_text_bytes(t), LIT("*** Begin Patch\n*** End Patch\n"))) {
                load_fail(v, "the patch between equal texts is not an empty envelope", NULL);
            }
        } else if (s == V4A_STATUS_OK) {
            v4a_result *r = NULL;
            v4a_bytes p = v4a_text_bytes(t);
            v4a_apply(src, src_len, p.ptr, p.len, V4A_MODE_UPDATE, NULL, &r);
            if (v4a_result_status(r) != V4A_STATUS_OK ||
                !view_equals(v4a_result_text(r), v->want_text[0].ptr, v->want_text[0].len)) {
                load_fail(v, "the generated patch does not apply back to after/", NULL);
            }
            v4a_result_free(r);
        }
        v4a_text_free(t);
    }
}

/* A multi-file case: the parsed patch (kept, shared by the threads), the reference result
 * sets of the three variants checked against the vector, the reverse patch (which must
 * restore before/), the unified diff of each file. */
static void load_multi(vec_t *v) {
    v4a_status ps = v4a_patch_parse((const uint8_t *)v->c.patch.ptr, v->c.patch.len,
                                    &v->shared_patch);
    buf report = {NULL, 0, 0};
    int k;
    if (v->shared_patch == NULL || v4a_patch_status(v->shared_patch) != ps) {
        load_fail(v, "v4a_patch_parse gave no consistent patch", NULL);
        return;
    }
    dump_patch(&v->ref_patch, v->shared_patch);
    v->n_sources = v4a_patch_ops(v->shared_patch).len;
    v->sources = sources_from(v->shared_patch, &v->c.before);
    for (k = 0; k < VARIANTS; k++) {
        v4a_result_set *set = NULL;
        v4a_status s = v4a_patch_apply(v->shared_patch, v->sources, v->n_sources, &v->options[k],
                                       &set);
        if (set == NULL || v4a_result_set_status(set) != s) {
            load_fail(v, "v4a_patch_apply gave no consistent result set", NULL);
            v4a_result_set_free(set);
            return;
        }
        dump_result_set(&v->ref_apply[k], set);
        v->succeeds = s == V4A_STATUS_OK;
        vector_check_set(&v->c, v->shared_patch, set, &report);
        load_report(v, "the reference fails the vector's checks", &report);
        if (k == 0 && v->succeeds) {
            v4a_file_results files = v4a_result_set_files(set);
            size_t i;
            v->n_want = files.len;
            v->want_text = (v4a_bytes *)xrealloc(NULL, sizeof(v4a_bytes) * (files.len + 1));
            v->ref_unified = (buf *)xrealloc(NULL, sizeof(buf) * (files.len + 1));
            memset(v->ref_unified, 0, sizeof(buf) * (files.len + 1));
            for (i = 0; i < files.len; i++) {
                const v4a_file_result *f = &files.ptr[i];
                const char *target = (const char *)(f->move_to.ptr ? f->move_to.ptr : f->path.ptr);
                const file_entry *e = map_get(&v->c.after, target);
                v4a_text *t = NULL;
                v4a_status us = v4a_result_unified_diff(f->result, 2, &t);
                ref_text(&v->ref_unified[i], us, t);
                v4a_text_free(t);
                v->want_text[i].ptr = (const uint8_t *)"";
                v->want_text[i].len = 0;
                if (f->kind != V4A_OP_DELETE && e != NULL) {
                    v->want_text[i].ptr = e->data;
                    v->want_text[i].len = e->len;
                }
            }
        }
        v4a_result_set_free(set);
    }
    /* the reverse patch: the apply's error, or a patch that restores before/ from after/ */
    if (ps == V4A_STATUS_OK) {
        v4a_text *t = NULL;
        v4a_status s = v4a_patch_reverse(v->shared_patch, v->sources, v->n_sources,
                                         &v->options[0], &t);
        v->can_reverse = 1;
        ref_text(&v->ref_reverse, s, t);
        if (!v->succeeds) {
            v4a_result_set *set = NULL;
            v4a_patch_apply(v->shared_patch, v->sources, v->n_sources, &v->options[0], &set);
            if (s != v4a_result_set_status(set)) {
                load_fail(v, "the reverse fails with another status than the apply",
                          v4a_status_str(s));
            }
            v4a_result_set_free(set);
        } else if (s != V4A_STATUS_OK) {
            /* A patch that changes nothing has no reverse: an error that says why. */
            buf same = {NULL, 0, 0};
            compare_files(&v->c.before, &v->c.after, "after/", &same);
            if (same.len != 0 ||
                (s != V4A_STATUS_INVALID_ARGUMENT && s != V4A_STATUS_ALREADY_APPLIED)) {
                load_fail(v, "the reverse failed", v4a_status_str(s));
            }
            free(same.ptr);
        } else {
            v4a_patch *rp = NULL;
            v4a_result_set *set = NULL;
            v4a_source *rs;
            file_map restored = {NULL, 0};
            v4a_patch_parse((const uint8_t *)v4a_text_bytes(t).ptr, v4a_text_bytes(t).len, &rp);
            rs = sources_from(rp, &v->c.after);
            v4a_patch_apply(rp, rs, v4a_patch_ops(rp).len, NULL, &set);
            if (v4a_result_set_status(set) != V4A_STATUS_OK) {
                load_fail(v, "the reverse patch does not apply to after/",
                          v4a_status_str(v4a_result_set_status(set)));
            } else {
                after_state(set, &v->c.after, &restored);
                compare_files(&v->c.before, &restored, "before/", &report);
                load_report(v, "the reverse patch does not restore before/", &report);
            }
            map_free(&restored);
            v4a_result_set_free(set);
            free(rs);
            v4a_patch_free(rp);
        }
        v4a_text_free(t);
    }
}


/* Loads one case folder and computes its references; returns 0 for a folder to skip. */
static int load_vector(vec_t *v, const char *dir, const char *name) {
    buf report = {NULL, 0, 0};
    uint32_t m;
    memset(v, 0, sizeof *v);
    v->name = xstrdup(name);
    if (!vector_read(&v->c, dir, &report) || report.len) {
        load_report(v, "a bad case folder", &report);
        free_vector(v);
        return 0;
    }
    if (v->c.has_base) {
        /* base-aware apply: test_vectors' own (the soak's jobs apply without bases) */
        free_vector(v);
        return 0;
    }
    for (m = 0; v->c.mode != NULL && m < 4; m++) {
        if (strcmp(v->c.mode, MODE_NAMES[m]) == 0) {
            v->mode_known = 1;
            v->mode_value = m;
        }
    }
    /* the vector's options, the same with a full refined diff, and with changed lines and 1
     * line of context: every view of the result is exercised */
    v->options[0] = v->options[1] = v->options[2] = v->c.options;
    v->options[1].diff_style = V4A_DIFF_STYLE_FULL;
    v->options[1].refine = 1;
    v->options[2].diff_style = V4A_DIFF_STYLE_CHANGES;
    v->options[2].diff_context = 1;
    if (v->c.mode != NULL) {
        load_single(v);
    } else {
        load_multi(v);
    }
    return 1;
}

/* ----------------------------------------------------------------------------------------
 * The pool of published handles, shared by every thread. A slot holds one reference; readers
 * take one more under the lock, read without it, and give it back; the thread that gives back
 * the last reference checks the handle once more and frees it. The reference counts are only
 * touched under the lock, so helgrind and DRD see every hand-over.
 */

typedef struct item {
    int kind; /* ITEM_* */
    void *handle;
    const vec_t *v;
    const buf *ref;
    int producer;
    int refs; /* guarded by pool_lock */
} item;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static item *pool[POOL_SIZE];

static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;
static int printed_failures;

enum { JOB_APPLY, JOB_APPLY_MODE_NAME, JOB_PARSE_APPLY, JOB_SHARED_APPLY, JOB_REVERSE, JOB_MAKE,
       JOB_KINDS };
static const char *const JOB_NAMES[] = {"v4a_apply",       "v4a_apply_mode_name",
                                        "parse+apply",     "shared patch apply",
                                        "v4a_patch_reverse", "v4a_make_patch"};

typedef struct {
    int id;
    long iterations;
    uint64_t rng;       /* picks the jobs: the same sequence for a seed, whatever the timing */
    uint64_t rng_check; /* picks the slots to read and the unified diffs to render */
    buf scratch;
    long jobs[JOB_KINDS];
    long checks, foreign_reads, foreign_frees, frees, unified;
    long failures;
} worker;

/* splitmix64 */
static uint64_t next_random_of(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t next_random(worker *w) {
    return next_random_of(&w->rng);
}

static uint64_t next_check_random(worker *w) {
    return next_random_of(&w->rng_check);
}

/* Prints a bytes window, escaped. */
static void fail(worker *w, const item *it, const char *what, const buf *got) {
    w->failures++;
    pthread_mutex_lock(&print_lock);
    if (printed_failures++ < MAX_PRINTED_FAILURES) {
        fprintf(stderr, "test_soak: thread %d: %s %s made by thread %d: %s\n", w->id,
                it->v->name, ITEM_NAMES[it->kind], it->producer, what);
        if (got != NULL) {
            buf diff = {NULL, 0, 0};
            size_t at = 0, from;
            while (at < got->len && at < it->ref->len && got->ptr[at] == it->ref->ptr[at]) {
                at++;
            }
            from = at > 60 ? at - 60 : 0;
            buf_printf(&diff, "  first difference at byte %zu of the dump\n  expected: ", at);
            buf_show(&diff, (const uint8_t *)it->ref->ptr + from, it->ref->len - from, 160);
            buf_printf(&diff, "\n  actual:   ");
            buf_show(&diff, (const uint8_t *)got->ptr + from, got->len - from, 160);
            fprintf(stderr, "%s\n", diff.ptr);
            free(diff.ptr);
        }
    }
    pthread_mutex_unlock(&print_lock);
}

/* Reads every view of a handle and compares it with the reference and with after/. */
static void check_item(worker *w, const item *it) {
    buf *b = &w->scratch;
    size_t i;
    w->checks++;
    b->len = 0;
    switch (it->kind) {
    case ITEM_RESULT:
        dump_result(b, (const v4a_result *)it->handle);
        break;
    case ITEM_SET:
        dump_result_set(b, (const v4a_result_set *)it->handle);
        break;
    case ITEM_PATCH:
        dump_patch(b, (const v4a_patch *)it->handle);
        break;
    default:
        dump_text(b, (const v4a_text *)it->handle);
        break;
    }
    if (b->len != it->ref->len || memcmp(b->ptr, it->ref->ptr, b->len) != 0) {
        fail(w, it, "differs from the single-threaded reference", b);
        return;
    }
    /* the texts are the files of after/ (as the reference was checked to be) */
    if (it->kind == ITEM_RESULT && it->v->succeeds &&
        !view_equals(v4a_result_text((const v4a_result *)it->handle), it->v->want_text[0].ptr,
                 it->v->want_text[0].len)) {
        fail(w, it, "the text is not after/", NULL);
    }
    if (it->kind == ITEM_SET && it->v->succeeds) {
        v4a_file_results files = v4a_result_set_files((const v4a_result_set *)it->handle);
        for (i = 0; i < files.len && i < it->v->n_want; i++) {
            if (!view_equals(v4a_result_text(files.ptr[i].result), it->v->want_text[i].ptr,
                         it->v->want_text[i].len)) {
                fail(w, it, "a file's text is not after/", NULL);
            }
        }
        if (files.len != it->v->n_want) {
            fail(w, it, "the number of file results", NULL);
        }
    }
    /* now and then, a unified diff rendered from the shared result, compared too */
    if ((it->kind == ITEM_RESULT || (it->kind == ITEM_SET && it->v->succeeds)) &&
        next_check_random(w) % 4 == 0) {
        const v4a_result *r = (const v4a_result *)it->handle;
        const buf *want = &it->v->ref_unified[0];
        v4a_text *t = NULL;
        v4a_status s;
        if (it->kind == ITEM_SET) {
            v4a_file_results files = v4a_result_set_files((const v4a_result_set *)it->handle);
            if (files.len == 0) {
                return;
            }
            i = (size_t)(next_check_random(w) % files.len);
            r = files.ptr[i].result;
            want = &it->v->ref_unified[i];
        }
        s = v4a_result_unified_diff(r, 2, &t);
        b->len = 0;
        ref_text(b, s, t);
        v4a_text_free(t);
        w->unified++;
        if (b->len != want->len || memcmp(b->ptr, want->ptr, b->len) != 0) {
            item shown = *it;
            shown.ref = want;
            fail(w, &shown, "its unified diff differs from the reference", b);
        }
    }
}

static void free_item(item *it) {
    switch (it->kind) {
    case ITEM_RESULT:
        v4a_result_free((v4a_result *)it->handle);
        break;
    case ITEM_SET:
        v4a_result_set_free((v4a_result_set *)it->handle);
        break;
    case ITEM_PATCH:
        v4a_patch_free((v4a_patch *)it->handle);
        break;
    default:
        v4a_text_free((v4a_text *)it->handle);
        break;
    }
    free(it);
}

static void release(worker *w, item *it) {
    int last;
    pthread_mutex_lock(&pool_lock);
    last = --it->refs == 0;
    pthread_mutex_unlock(&pool_lock);
    if (last) {
        check_item(w, it);
        w->frees++;
        if (it->producer != w->id) {
            w->foreign_frees++;
        }
        free_item(it);
    }
}

/* Puts a new handle into a random slot; the handle it replaces loses the slot's reference. */
static void publish(worker *w, int kind, void *handle, const vec_t *v, const buf *ref) {
    item *it = (item *)xrealloc(NULL, sizeof(item)), *old;
    size_t slot = (size_t)(next_random(w) % POOL_SIZE);
    if (handle == NULL) {
        it->kind = kind;
        it->v = v;
        it->ref = ref;
        it->producer = w->id;
        fail(w, it, "no handle was returned", NULL);
        free(it);
        return;
    }
    it->kind = kind;
    it->handle = handle;
    it->v = v;
    it->ref = ref;
    it->producer = w->id;
    it->refs = 1;
    pthread_mutex_lock(&pool_lock);
    old = pool[slot];
    pool[slot] = it;
    pthread_mutex_unlock(&pool_lock);
    if (old != NULL) {
        release(w, old);
    }
}

/* Reads the handle of a random slot, whoever made it, while others may read it too. */
static void read_random(worker *w) {
    size_t slot = (size_t)(next_check_random(w) % POOL_SIZE);
    item *it;
    pthread_mutex_lock(&pool_lock);
    it = pool[slot];
    if (it != NULL) {
        it->refs++;
    }
    pthread_mutex_unlock(&pool_lock);
    if (it != NULL) {
        check_item(w, it);
        if (it->producer != w->id) {
            w->foreign_reads++;
        }
        release(w, it);
    }
}

/* One job on a random vector. */
static void run_job(worker *w) {
    vec_t *v = &vectors[pool_vectors[next_random(w) % n_pool_vectors]];
    int variant = (int)(next_random(w) % VARIANTS);
    unsigned pick = (unsigned)(next_random(w) % 16);
    if (v->c.mode != NULL) {
        const uint8_t *src = v->c.before.len ? v->c.before.items[0].data : NULL;
        size_t src_len = v->c.before.len ? v->c.before.items[0].len : 0;
        if (pick == 0 && v->can_make) {
            v4a_text *t = NULL;
            v4a_make_patch(src, src_len, v->want_text[0].ptr, v->want_text[0].len,
                           (const uint8_t *)"f", 1, NULL, &t);
            w->jobs[JOB_MAKE]++;
            publish(w, ITEM_TEXT, t, v, &v->ref_make);
        } else {
            v4a_result *r = NULL;
            if (v->mode_known && pick % 2 == 0) {
                v4a_apply(src, src_len, (const uint8_t *)v->c.patch.ptr, v->c.patch.len,
                          v->mode_value, &v->options[variant], &r);
                w->jobs[JOB_APPLY]++;
            } else {
                v4a_apply_mode_name(src, src_len, (const uint8_t *)v->c.patch.ptr, v->c.patch.len,
                                    (const uint8_t *)v->c.mode, strlen(v->c.mode),
                                    &v->options[variant], &r);
                w->jobs[JOB_APPLY_MODE_NAME]++;
            }
            publish(w, ITEM_RESULT, r, v, &v->ref_apply[variant]);
        }
    } else if (pick < 7 || v4a_patch_status(v->shared_patch) != V4A_STATUS_OK) {
        /* parsed here; the patch itself is published too, now and then */
        v4a_patch *p = NULL;
        v4a_result_set *set = NULL;
        v4a_patch_parse((const uint8_t *)v->c.patch.ptr, v->c.patch.len, &p);
        if (p != NULL) {
            v4a_patch_apply(p, v->sources, v->n_sources, &v->options[variant], &set);
        }
        w->jobs[JOB_PARSE_APPLY]++;
        publish(w, ITEM_SET, set, v, &v->ref_apply[variant]);
        if (pick < 2) {
            publish(w, ITEM_PATCH, p, v, &v->ref_patch);
        } else {
            v4a_patch_free(p);
        }
    } else if (pick < 14 || !v->can_reverse) {
        v4a_result_set *set = NULL;
        v4a_patch_apply(v->shared_patch, v->sources, v->n_sources, &v->options[variant], &set);
        w->jobs[JOB_SHARED_APPLY]++;
        publish(w, ITEM_SET, set, v, &v->ref_apply[variant]);
    } else {
        v4a_text *t = NULL;
        v4a_patch_reverse(v->shared_patch, v->sources, v->n_sources, &v->options[0], &t);
        w->jobs[JOB_REVERSE]++;
        publish(w, ITEM_TEXT, t, v, &v->ref_reverse);
    }
}

static void *run(void *arg) {
    worker *w = (worker *)arg;
    long i;
    for (i = 0; i < w->iterations; i++) {
        run_job(w);
        read_random(w);
    }
    return NULL;
}

static long parse_count(const char *s, const char *what) {
    char *end;
    long n = strtol(s, &end, 10);
    if (*s == 0 || *end != 0 || n < 1) {
        fprintf(stderr, "test_soak: %s must be a positive number, not \"%s\"\n", what, s);
        exit(2);
    }
    return n;
}

int main(int argc, char **argv) {
    long n_threads = argc > 2 ? parse_count(argv[2], "THREADS") : 8;
    long iterations = argc > 3 ? parse_count(argv[3], "ITERATIONS") : 100000;
    uint64_t seed = argc > 4 ? (uint64_t)parse_count(argv[4], "SEED") : 1;
    pthread_t *threads;
    worker *workers, total;
    char **names;
    int n, i, k;
    size_t j, n_single = 0, n_large = 0;
    long failures = 0, applies = 0;
    double start, elapsed;

    if (argc < 2 || argc > 5) {
        fprintf(stderr, "usage: %s VECTORS_DIR [THREADS [ITERATIONS [SEED]]]\n", argv[0]);
        return 2;
    }
    n = list_dir(argv[1], &names);
    if (n < 0) {
        fprintf(stderr, "test_soak: cannot read %s\n", argv[1]);
        return 2;
    }
    /* the references, single-threaded, before any thread starts */
    vectors = (vec_t *)xrealloc(NULL, sizeof(vec_t) * (size_t)n);
    pool_vectors = (size_t *)xrealloc(NULL, sizeof(size_t) * (size_t)n);
    for (i = 0; i < n; i++) {
        char *dir = path_join(argv[1], names[i]);
        if (is_dir(dir) && load_vector(&vectors[n_vectors], dir, names[i])) {
            vec_t *v = &vectors[n_vectors];
            if (vector_bytes(v) > SOAK_MAX_VECTOR_BYTES) {
                n_large++;
            } else {
                pool_vectors[n_pool_vectors++] = n_vectors;
                n_single += v->c.mode != NULL;
            }
            n_vectors++;
        }
        free(dir);
    }
    free_names(names, n);
    if (load_failures || n_pool_vectors < 100) {
        fprintf(stderr, "test_soak: %d problems with the references; %zu vectors to pick from\n",
                load_failures, n_pool_vectors);
        return 1;
    }

    threads = (pthread_t *)xrealloc(NULL, sizeof(pthread_t) * (size_t)n_threads);
    workers = (worker *)xrealloc(NULL, sizeof(worker) * (size_t)n_threads);
    memset(workers, 0, sizeof(worker) * (size_t)n_threads);
    start = seconds_now();
    for (i = 0; i < n_threads; i++) {
        workers[i].id = i;
        workers[i].iterations = iterations;
        workers[i].rng = seed * 0x100000001B3ull + (uint64_t)i;
        workers[i].rng_check = ~workers[i].rng;
        if (pthread_create(&threads[i], NULL, run, &workers[i]) != 0) {
            fprintf(stderr, "test_soak: cannot start thread %d\n", i);
            return 1;
        }
    }
    memset(&total, 0, sizeof total);
    for (i = 0; i < n_threads; i++) {
        pthread_join(threads[i], NULL);
    }
    elapsed = seconds_now() - start;
    /* main checks and frees what is left in the pool */
    total.id = -1;
    for (j = 0; j < POOL_SIZE; j++) {
        if (pool[j] != NULL) {
            item *it = pool[j];
            pool[j] = NULL;
            release(&total, it);
        }
    }
    for (i = 0; i < n_threads; i++) {
        for (k = 0; k < JOB_KINDS; k++) {
            total.jobs[k] += workers[i].jobs[k];
        }
        total.checks += workers[i].checks;
        total.foreign_reads += workers[i].foreign_reads;
        total.foreign_frees += workers[i].foreign_frees;
        total.frees += workers[i].frees;
        total.unified += workers[i].unified;
        total.failures += workers[i].failures;
        free(workers[i].scratch.ptr);
    }
    failures = total.failures;
    for (k = 0; k < JOB_KINDS; k++) {
        applies += total.jobs[k];
    }
    printf("test_soak: %ld threads x %ld jobs, seed %llu, %zu vectors (%zu single-file, %zu "
           "multi-file; %zu larger than %d bytes left out): %.2f s, %.0f jobs/s\n",
           n_threads, iterations, (unsigned long long)seed, n_pool_vectors, n_single,
           n_pool_vectors - n_single, n_large, SOAK_MAX_VECTOR_BYTES, elapsed,
           (double)applies / (elapsed > 0 ? elapsed : 1));
    printf("test_soak: jobs:");
    for (k = 0; k < JOB_KINDS; k++) {
        printf(" %s %ld%s", JOB_NAMES[k], total.jobs[k], k + 1 < JOB_KINDS ? "," : "\n");
    }
    printf("test_soak: %ld handles checked in full (%ld read by a thread that did not make them, "
           "%ld unified diffs rendered from shared results), %ld freed (%ld by a thread that did "
           "not make them)\n",
           total.checks, total.foreign_reads, total.unified, total.frees, total.foreign_frees);
    if (n_threads > 1 && (total.foreign_reads == 0 || total.foreign_frees == 0)) {
        fprintf(stderr, "test_soak: no handle crossed threads\n");
        failures++;
    }
    if (applies != n_threads * iterations) {
        failures++;
    }
    for (j = 0; j < n_vectors; j++) {
        free_vector(&vectors[j]);
    }
    free(vectors);
    free(pool_vectors);
    free(total.scratch.ptr);
    free(threads);
    free(workers);
    printf("test_soak: %ld passed, %ld failed\n", total.checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
