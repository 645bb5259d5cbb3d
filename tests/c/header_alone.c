/*
 * v4a.h compiled alone (first and only include: it must be self-contained) and twice (its
 * include guard), as C99 and C11 with -Wall -Wextra -pedantic -Werror. In C11 the layout of
 * every struct is checked too.
 */
#include "v4a.h"
#include "v4a.h"

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#include "layout.h"
#endif

/* Uses the declarations, so that nothing in them is only accepted unused. */
int v4a_header_alone(void);
int v4a_header_alone(void) {
    v4a_options options;
    v4a_result *result = 0;
    v4a_status status;
    v4a_options_init(&options);
    status = v4a_apply(0, 0, 0, 0, V4A_MODE_UPDATE, &options, &result);
    v4a_result_free(result);
    return (int)status + (int)sizeof(V4A_VERSION) + V4A_ABI_VERSION;
}
