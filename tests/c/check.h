/*
 * A minimal test harness for the C tests: CHECK macros that count (the counters live in
 * support/check.c, so that every file of a test counts into the same two), report the failing
 * expression with its file and line, and a closing "N passed, N failed" line; and the
 * multi-file patch of test_api.
 */
#ifndef V4A_TEST_CHECK_H
#define V4A_TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "v4a.h"

/* The CHECKs passed and failed so far, by every file of the test (support/check.c). */
extern int check_passed_count;
extern int check_failed_count;

static inline void check_record(int ok, const char *file, int line, const char *what) {
    if (ok) {
        check_passed_count++;
    } else {
        check_failed_count++;
        fprintf(stderr, "%s:%d: CHECK failed: %s\n", file, line, what);
    }
}

#define CHECK(cond) check_record((cond) ? 1 : 0, __FILE__, __LINE__, #cond)

/* A status equals the expected one; prints both names when not. */
static inline void check_status_at(v4a_status got, v4a_status want, const char *file, int line,
                            const char *expr) {
    if (got == want) {
        check_passed_count++;
    } else {
        check_failed_count++;
        fprintf(stderr, "%s:%d: %s is %s (%u), expected %s (%u)\n", file, line, expr,
                v4a_status_str(got), (unsigned)got, v4a_status_str(want), (unsigned)want);
    }
}
#define CHECK_STATUS(got, want) check_status_at((got), (want), __FILE__, __LINE__, #got)

/* A view holds exactly `len` bytes equal to `want`, followed by a NUL. */
static inline int view_equals(struct v4a_bytes view, const void *want, size_t len) {
    if (view.ptr == NULL) {
        return 0;
    }
    return view.len == len && memcmp(view.ptr, want, len) == 0 && view.ptr[len] == 0;
}

static inline void check_view_at(struct v4a_bytes view, const char *want, size_t len, const char *file,
                          int line, const char *expr) {
    if (view_equals(view, want, len)) {
        check_passed_count++;
    } else {
        check_failed_count++;
        fprintf(stderr, "%s:%d: %s is ", file, line, expr);
        if (view.ptr == NULL) {
            fprintf(stderr, "{NULL, %zu}", view.len);
        } else {
            fprintf(stderr, "\"%.*s\" (%zu bytes)", (int)view.len, (const char *)view.ptr,
                    view.len);
        }
        fprintf(stderr, ", expected \"%.*s\" (%zu bytes)\n", (int)len, want, len);
    }
}
/* A view equals a string literal (its length taken with sizeof, so it may hold NULs). */
#define CHECK_VIEW(view, literal) \
    check_view_at((view), (literal), sizeof(literal) - 1, __FILE__, __LINE__, #view)
/* A view equals a NUL-terminated C string. */
#define CHECK_VIEW_STR(view, str) \
    check_view_at((view), (str), strlen(str), __FILE__, __LINE__, #view)

/* A view is absent: {NULL, 0}. */
#define CHECK_ABSENT(view) CHECK((view).ptr == NULL && (view).len == 0)

/* The view contains the NUL-terminated `needle`. */
static inline int view_contains(struct v4a_bytes view, const char *needle) {
    size_t n = strlen(needle);
    size_t i;
    if (view.ptr == NULL || n > view.len) {
        return 0;
    }
    for (i = 0; i + n <= view.len; i++) {
        if (memcmp(view.ptr + i, needle, n) == 0) {
            return 1;
        }
    }
    return 0;
}
#define CHECK_CONTAINS(view, needle) CHECK(view_contains((view), (needle)))

/* Bytes of a string literal as a (pointer, length) pair. */
#define LIT(s) (const uint8_t *)(s), (sizeof(s) - 1)

/* A multi-file patch: an Add, an Update with a move, a Delete and an Update of a path that
 * escapes the root. */
#define MULTI_PATCH                     \
    "*** Begin Patch\n"                 \
    "*** Add File: docs/new.md\n"       \
    "+# Title\n"                        \
    "*** Update File: src/app.py\n"     \
    "*** Move to: src/main.py\n"        \
    "@@\n"                              \
    "-x = 1\n"                          \
    "+x = 2\n"                          \
    "*** Delete File: old.txt\n"        \
    "*** Update File: ../escape.txt\n"  \
    "@@\n"                              \
    "-a\n"                              \
    "+b\n"                              \
    "*** End Patch\n"

/* The sources of MULTI_PATCH's four operations, in order (absent for the Add). */
static inline void multi_sources(v4a_source sources[4]) {
    memset(sources, 0, sizeof(v4a_source) * 4);
    sources[1].ptr = (const uint8_t *)"x = 1\n";
    sources[1].len = 6;
    sources[1].present = 1;
    sources[2].ptr = (const uint8_t *)"bye\n";
    sources[2].len = 4;
    sources[2].present = 1;
    sources[3].ptr = (const uint8_t *)"a\n";
    sources[3].len = 2;
    sources[3].present = 1;
}

/* Prints the closing line and returns the exit code. */
static inline int check_report(const char *suite) {
    printf("%s: %d passed, %d failed\n", suite, check_passed_count, check_failed_count);
    return check_failed_count == 0 ? 0 : 1;
}

#endif /* V4A_TEST_CHECK_H */
