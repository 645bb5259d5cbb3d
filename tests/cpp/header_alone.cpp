// v4a.hpp compiled alone (it must include everything it needs), twice (its include guard),
// with strict warnings (-Wall -Wextra -pedantic -Werror -Wshadow -Wconversion).
#include "v4a.hpp"
#include "v4a.hpp"

int main() {
    v4a::Options options;
    options.max_level(v4a::Level::Trim).diff(v4a::DiffStyle::Changes, 2);
    return options.raw().struct_size == sizeof(v4a_options) ? 0 : 1;
}
