/*
 * Concurrency: threads apply patches at the same time, apply one shared v4a_patch, read one
 * shared v4a_result, and free results made by other threads. The library has no global
 * mutable state, so every thread must see exactly what a single thread sees.
 *
 * Usage: test_threads [ITERATIONS]   (default 500 per thread)
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "v4a.h"

#define THREADS 8

static const char SHARED_PATCH[] = "*** Begin Patch\n"
                                   "*** Update File: a.txt\n"
                                   "@@ fn a\n"
                                   "-    1\n"
                                   "+    2\n"
                                   "*** Add File: b.txt\n"
                                   "+new\n"
                                   "*** Delete File: c.txt\n"
                                   "*** End Patch\n";
static const char MISSING[] = "@@\n-nowhere\n+x\n";
static const char SHARED_SUMMARY[] = "Success. Updated the following files:\nM a.txt\nA b.txt\n"
                                     "D c.txt\n";

/* Shared, immutable once the threads start. */
static v4a_patch *shared_patch;
static v4a_source shared_sources[3];
static const v4a_result *shared_result;
static v4a_diff_lines shared_diff;
static v4a_bytes shared_text;
/* One result per thread, made by main and freed by the thread after the next one. */
static v4a_result *handoff[THREADS];

typedef struct {
    int id;
    int iterations;
    int failures;
    int checks;
} work;

static int same(v4a_bytes v, const char *s, size_t n) {
    return v.ptr != NULL && v.len == n && memcmp(v.ptr, s, n) == 0 && v.ptr[n] == 0;
}

#define EXPECT(w, cond)                                                                  \
    do {                                                                                 \
        (w)->checks++;                                                                   \
        if (!(cond)) {                                                                   \
            (w)->failures++;                                                             \
            fprintf(stderr, "thread %d: %s:%d: %s\n", (w)->id, __FILE__, __LINE__, #cond); \
        }                                                                                \
    } while (0)

static void *run(void *arg) {
    work *w = (work *)arg;
    char source[128], diff[128], want[128];
    int i;
    for (i = 0; i < w->iterations; i++) {
        v4a_result *r = NULL;
        v4a_result_set *set = NULL;
        v4a_options o;
        v4a_status s;
        size_t k;
        int n = snprintf(source, sizeof source, "thread %d\niteration %d\nend\n", w->id, i);
        int d = snprintf(diff, sizeof diff, "@@\n thread %d\n-iteration %d\n+done %d\n", w->id, i,
                         i * w->id);
        int m = snprintf(want, sizeof want, "thread %d\ndone %d\nend\n", w->id, i * w->id);

        /* its own apply, with a structured diff and refinement */
        v4a_options_init(&o);
        o.diff_style = V4A_DIFF_STYLE_FULL;
        o.refine = 1;
        s = v4a_apply((const uint8_t *)source, (size_t)n, (const uint8_t *)diff, (size_t)d,
                      V4A_MODE_UPDATE, &o, &r);
        EXPECT(w, s == V4A_STATUS_OK);
        EXPECT(w, same(v4a_result_text(r), want, (size_t)m));
        EXPECT(w, same(v4a_result_source(r), source, (size_t)n));
        EXPECT(w, v4a_result_diff(r).len == 4);
        v4a_result_free(r);

        /* a failing apply: its own error */
        r = NULL;
        s = v4a_apply((const uint8_t *)source, (size_t)n, (const uint8_t *)MISSING,
                      sizeof MISSING - 1, V4A_MODE_UPDATE, NULL, &r);
        EXPECT(w, s == V4A_STATUS_CONTEXT_NOT_FOUND);
        EXPECT(w, v4a_result_error(r) != NULL && v4a_result_error(r)->hunk == 1);
        v4a_result_free(r);

        /* the shared patch, applied concurrently */
        s = v4a_patch_apply(shared_patch, shared_sources, 3, NULL, &set);
        EXPECT(w, s == V4A_STATUS_OK);
        EXPECT(w, same(v4a_result_set_summary(set), SHARED_SUMMARY, sizeof SHARED_SUMMARY - 1));
        EXPECT(w, v4a_result_set_files(set).len == 3 &&
                      same(v4a_result_text(v4a_result_set_files(set).ptr[0].result),
                           "fn a\n    2\n", 11));
        v4a_result_set_free(set);

        /* the shared result, read concurrently */
        EXPECT(w, v4a_result_status(shared_result) == V4A_STATUS_OK);
        EXPECT(w, v4a_result_text(shared_result).ptr == shared_text.ptr);
        EXPECT(w, v4a_result_diff(shared_result).len == shared_diff.len);
        for (k = 0; k < shared_diff.len; k++) {
            const v4a_diff_line *a = &v4a_result_diff(shared_result).ptr[k];
            EXPECT(w, a == &shared_diff.ptr[k] && a->text.ptr[a->text.len] == 0);
        }

        /* views of static strings */
        EXPECT(w, strcmp(v4a_status_str(V4A_STATUS_AMBIGUOUS), "AMBIGUOUS") == 0);
        EXPECT(w, v4a_grammar().len > 0);
    }
    /* free a result that another thread (main) made */
    v4a_result_free(handoff[w->id]);
    handoff[w->id] = NULL;
    return NULL;
}

int main(int argc, char **argv) {
    pthread_t threads[THREADS];
    work works[THREADS];
    int iterations = argc > 1 ? atoi(argv[1]) : 500;
    int i, failures = 0, checks = 0;
    v4a_result *owned = NULL;
    v4a_options o;

    memset(shared_sources, 0, sizeof shared_sources);
    shared_sources[0].ptr = (const uint8_t *)"fn a\n    1\n";
    shared_sources[0].len = 11;
    shared_sources[0].present = 1;
    shared_sources[2].ptr = (const uint8_t *)"old\n";
    shared_sources[2].len = 4;
    shared_sources[2].present = 1;
    if (v4a_patch_parse((const uint8_t *)SHARED_PATCH, sizeof SHARED_PATCH - 1, &shared_patch) !=
        V4A_STATUS_OK) {
        fprintf(stderr, "test_threads: the shared patch did not parse\n");
        return 1;
    }
    v4a_options_init(&o);
    o.diff_style = V4A_DIFF_STYLE_FULL;
    o.refine = 1;
    if (v4a_apply((const uint8_t *)"a\nb b b\nc\n", 10, (const uint8_t *)"@@\n a\n-b b b\n+b c b\n",
                  20, V4A_MODE_UPDATE, &o, &owned) != V4A_STATUS_OK) {
        fprintf(stderr, "test_threads: the shared result failed\n");
        return 1;
    }
    shared_result = owned;
    shared_text = v4a_result_text(shared_result);
    shared_diff = v4a_result_diff(shared_result);

    for (i = 0; i < THREADS; i++) {
        handoff[i] = NULL;
        v4a_apply((const uint8_t *)"x\n", 2, (const uint8_t *)"+y\n", 3, V4A_MODE_UPDATE, NULL,
                  &handoff[i]);
        works[i].id = i;
        works[i].iterations = iterations;
        works[i].failures = 0;
        works[i].checks = 0;
        if (pthread_create(&threads[i], NULL, run, &works[i]) != 0) {
            fprintf(stderr, "test_threads: cannot start thread %d\n", i);
            return 1;
        }
    }
    for (i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        failures += works[i].failures;
        checks += works[i].checks;
        if (handoff[i] != NULL) {
            failures++;
        }
    }
    v4a_result_free(owned);
    v4a_patch_free(shared_patch);
    printf("test_threads: %d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
