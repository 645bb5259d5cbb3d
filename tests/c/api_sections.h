/*
 * The scenarios of test_api.c, as a table: run once each by test_api (one CTest test per
 * section) and many times over by test_leaks (natively, under ASan and under valgrind), so that
 * the leak test exercises exactly what the API test checks.
 */
#ifndef V4A_TEST_API_SECTIONS_H
#define V4A_TEST_API_SECTIONS_H

#include <stddef.h>

/* A named section: up to four test functions, run in order (NULL ends the list early). */
typedef struct {
    const char *name;
    void (*tests[4])(void);
} api_section;

/* Every section of test_api.c; a new test function goes into one of them (or a new one,
 * listed in V4A_API_SECTIONS of tests/c/CMakeLists.txt too). */
extern const api_section API_SECTIONS[];
extern const size_t API_SECTION_COUNT;

/* Runs every test function of one section. */
void api_run_section(const api_section *section);

#endif /* V4A_TEST_API_SECTIONS_H */
