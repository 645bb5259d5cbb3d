/*
 * The refinement call and the line diff as columns (refine_cases.h), once, with exact
 * answers; natively, under ASan and under valgrind memcheck.
 */
#include "check.h"
#include "refine_cases.h"

int main(void) {
    refine_cases();
    line_diff_cases();
    return check_report("test_refine");
}
