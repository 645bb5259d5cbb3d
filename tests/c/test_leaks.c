/*
 * Leak check: the scenarios of test_api.c (its API_SECTIONS table, api_sections.h: every
 * export of v4a.h on its success and error paths, every accessor read, every status checked),
 * ITERATIONS times over, run natively, under ASan and under valgrind memcheck with
 * --leak-check=full (CTest labels leaks, asan, valgrind). The scenarios are written once, in
 * test_api.c; this file only repeats them, so whatever the API test checks is leak-checked too.
 *
 * check_leak_coverage.cmake fails when an export declared in include/v4a.h is not called by
 * test_api.c.
 *
 * Usage: test_leaks [ITERATIONS]   (default 1000)
 */
#include <stdio.h>
#include <stdlib.h>

#include "api_sections.h"
#include "check.h"

int main(int argc, char **argv) {
    long iterations = argc > 1 ? strtol(argv[1], NULL, 10) : 1000, i;
    size_t s;
    if (iterations < 1) {
        fprintf(stderr, "usage: %s [ITERATIONS]\n", argv[0]);
        return 2;
    }
    /* The first failing iteration is the last: its CHECK lines say what failed. */
    for (i = 0; i < iterations && check_failed_count == 0; i++) {
        for (s = 0; s < API_SECTION_COUNT; s++) {
            api_run_section(&API_SECTIONS[s]);
        }
    }
    printf("test_leaks: %ld iterations of the %zu sections of test_api.c\n", i, API_SECTION_COUNT);
    return check_report("test_leaks");
}
