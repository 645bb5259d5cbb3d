// v4a.h compiled alone and twice as C++17 with -Wall -Wextra -pedantic -Werror, with the
// layout of every struct checked by static_assert.
#include "v4a.h"
#include "v4a.h"

#include "layout.h"

#include <type_traits>

static_assert(std::is_same<v4a_status, uint32_t>::value, "v4a_status is uint32_t");
static_assert(std::is_standard_layout<v4a_options>::value, "v4a_options is standard layout");
static_assert(std::is_trivially_copyable<v4a_error>::value, "v4a_error is trivially copyable");

int v4a_header_alone();
int v4a_header_alone() {
    v4a_options options;
    v4a_result *result = nullptr;
    v4a_options_init(&options);
    v4a_status status = v4a_apply(nullptr, 0, nullptr, 0, V4A_MODE_UPDATE, &options, &result);
    v4a_result_free(result);
    return static_cast<int>(status) + static_cast<int>(sizeof(V4A_VERSION));
}
