/* The counters of check.h, one pair for all the files of a test. */
#include "check.h"

int check_passed_count;
int check_failed_count;
