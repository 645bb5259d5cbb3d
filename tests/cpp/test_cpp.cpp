// The C++ wrapper (include/v4a.hpp) against the real library: RAII handles, views, typed
// enums, errors as exceptions with their diagnostics, the try_ form, multi-file patches,
// generation, the tool kit. Every check states the exact value it expects.
#include "v4a.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

static int failures = 0;
static int checks = 0;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        ++checks;                                                                    \
        if (!(cond)) {                                                               \
            ++failures;                                                              \
            std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

// Runs `body`, which must throw a v4a::Error; returns it (status Ok if nothing was thrown).
template <typename F>
static v4a::Error thrown(F body) {
    try {
        body();
    } catch (const v4a::Error &e) {
        return e;
    }
    return v4a::Error(v4a::Status::Ok, "nothing was thrown");
}

static_assert(!std::is_copy_constructible<v4a::Result>::value, "handles are not copyable");
static_assert(std::is_nothrow_move_constructible<v4a::Result>::value, "handles move");
static_assert(std::is_nothrow_move_constructible<v4a::Patch>::value, "handles move");
static_assert(static_cast<v4a_status>(v4a::Status::Ambiguous) == V4A_STATUS_AMBIGUOUS, "enum values");
static_assert(static_cast<v4a_level>(v4a::Level::Fold) == V4A_LEVEL_FOLD, "enum values");

static void test_apply_and_views() {
    const std::string source = "def f():\n    x = 1\n    return x\n";
    v4a::Result r = v4a::apply(source, "@@ def f():\n-    x = 1\n+    x = 2\n     return x\n",
                               v4a::Mode::Update, v4a::Options().diff(v4a::DiffStyle::Full));
    CHECK(r.ok() && r.status() == v4a::Status::Ok && r.error() == nullptr);
    CHECK(r.text() == "def f():\n    x = 2\n    return x\n");
    CHECK(r.source() == source);
    CHECK(!r.path().has_value() && !r.destination().has_value());
    CHECK(r.fuzz() == 0);
    CHECK(r.hunks().size() == 1 && r.hunks()[0].old_start == 2 && r.hunks()[0].level == V4A_LEVEL_EXACT);
    CHECK(r.diff().size() == 4);
    CHECK(r.changes().size() == 1 && r.changes()[0].old_start == 2 && r.changes()[0].new_len == 1);
    CHECK(r.unified_diff(0).view() == "--- a\n+++ b\n@@ -2 +2 @@\n-    x = 1\n+    x = 2\n");
    // The same rendering from copied parts, as a binding that freed the result would do.
    std::string text(r.text());
    std::vector<v4a_change> changes(r.changes().begin(), r.changes().end());
    v4a::Text parts = v4a::unified_diff(source, text, v4a::Span<v4a_change>(changes.data(), changes.size()),
                                        std::nullopt, std::nullopt, 0);
    CHECK(parts.view() == r.unified_diff(0).view());

    // Moving transfers the handle; the moved-from result reads as NULL (no double free).
    v4a::Result moved = std::move(r);
    CHECK(moved.text() == "def f():\n    x = 2\n    return x\n");
    CHECK(r.raw() == nullptr && r.text().empty() && r.status() == v4a::Status::NullArgument);

    v4a::Result created = v4a::apply("", "+hello\n+world", "create");
    CHECK(created.text() == "hello\nworld\n");
    v4a::Result strict = v4a::apply("a\nb  \n", "@@\n a\n-b\n+c\n", v4a::Mode::Update,
                                    v4a::Options().max_level(v4a::Level::TrimEnd));
    CHECK(strict.text() == "a\nc\n" && strict.hunks()[0].level == V4A_LEVEL_TRIM_END);
}

static void test_errors_carry_diagnostics() {
    // Not found: the exception has the status, the model's message and the corrected hunk.
    v4a::Error e = thrown([] { v4a::apply("alpha\nbeta\ngamma\n", "@@\n alpha\n-betta\n+BETA\n"); });
    CHECK(e.status() == v4a::Status::ContextNotFound);
    CHECK(e.status_name() == "CONTEXT_NOT_FOUND");
    CHECK(!e.message().empty() && std::string(e.what()) == std::string(e.message()));
    CHECK(e.hunk() == 1);
    CHECK(e.closest_start() == 1 && e.closest_end() == 2);
    CHECK(e.corrected_hunk().has_value() && e.corrected_hunk()->find("-beta\n") != std::string::npos);

    // Ambiguous: every candidate line and a suggestion.
    e = thrown([] { v4a::apply("x\ny\nx\ny\n", "@@\n x\n-y\n+z\n"); });
    CHECK(e.status() == v4a::Status::Ambiguous);
    CHECK(e.candidates() == std::vector<std::uint32_t>({1, 3}));
    CHECK(e.suggestion().has_value());

    // Invalid UTF-8: the input and the byte offset.
    e = thrown([] { v4a::apply("ok\n\xFF\n", "@@\n-ok\n+fine\n"); });
    CHECK(e.status() == v4a::Status::InvalidUtf8);
    CHECK(e.input() == std::optional<std::string>("source") && e.byte_offset() == std::optional<std::uint64_t>(3));

    // A mode name the library does not know.
    e = thrown([] { v4a::apply("", "+a\n", "append"); });
    CHECK(e.status() == v4a::Status::UnsupportedMode);

    // The try_ form returns the error in the result instead of throwing.
    v4a::Result r = v4a::try_apply("a\n", "@@\n-b\n+c\n");
    CHECK(!r.ok() && r.status() == v4a::Status::ContextNotFound && r.error() != nullptr);
    CHECK(r.text().empty());
    CHECK(v4a::Error(*r.error()).status() == v4a::Status::ContextNotFound);
}

static void test_multi_file() {
    const char *patch_text = "*** Begin Patch\n"
                             "*** Add File: new.txt\n"
                             "+fresh\n"
                             "*** Update File: a.txt\n"
                             "*** Move to: b.txt\n"
                             "@@\n-one\n+uno\n"
                             "*** Delete File: gone.txt\n"
                             "*** End Patch\n";
    v4a::Patch patch = v4a::Patch::parse(patch_text);
    CHECK(patch.ops().size() == 3);
    CHECK(patch.ops()[0].kind == V4A_OP_ADD && patch.ops()[1].kind == V4A_OP_UPDATE &&
          patch.ops()[2].kind == V4A_OP_DELETE);
    std::vector<v4a::Source> sources = {v4a::Source::absent(), {"one\ntwo\n"}, {"bye\n"}};
    v4a::ResultSet set = patch.apply(sources);
    CHECK(set.ok() && set.size() == 3);
    CHECK(set.file(0).kind == v4a::OpKind::Add && set.file(0).path == "new.txt" &&
          set.file(0).result.text() == "fresh\n");
    CHECK(set.file(1).move_to == std::optional<std::string_view>("b.txt") &&
          set.file(1).result.text() == "uno\ntwo\n");
    CHECK(set.file(2).kind == v4a::OpKind::Delete && set.file(2).result.text().empty());
    CHECK(set.summary() == "Success. Updated the following files:\nA new.txt\nM b.txt\nD gone.txt\n");
    bool out_of_range = false;
    try {
        set.file(3);
    } catch (const std::out_of_range &) {
        out_of_range = true;
    }
    CHECK(out_of_range);

    // All or nothing: a missing source fails the whole patch, naming the file.
    std::vector<v4a::Source> missing = {v4a::Source::absent(), v4a::Source::absent(), {"bye\n"}};
    v4a::Error e = thrown([&] { patch.apply(missing); });
    CHECK(e.status() == v4a::Status::MissingSource && e.path() == std::optional<std::string>("a.txt"));
    // A source count that does not match the operations.
    e = thrown([&] { patch.apply({}); });
    CHECK(e.status() == v4a::Status::InvalidArgument);

    // The reverse patch undoes it.
    v4a::Text back = patch.reverse(sources);
    CHECK(back.view().find("*** Delete File: new.txt") != std::string::npos);

    e = thrown([] { v4a::Patch::parse("*** Begin Patch\n*** Update File: a\n@@\n-x\n"); });
    CHECK(e.status() == v4a::Status::TruncatedPatch);
    e = thrown([] { v4a::Patch::parse_strict("*** Begin Patch\r\n*** Delete File: a\r\n*** End Patch\r\n"); });
    CHECK(e.status() == v4a::Status::PatchSyntax && e.patch_line() >= 1);
}

static void test_generation_and_tools() {
    const std::string before = "a\nb\nc\n", after = "a\nB\nc\n";
    v4a::Text patch = v4a::make_patch(before, after, "f.txt", v4a::GenerateOptions().context(1));
    CHECK(patch.view() == "*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+B\n c\n*** End Patch\n");
    v4a::ResultSet applied = v4a::Patch::parse(patch.view()).apply({{before}});
    CHECK(applied.file(0).result.text() == after);
    CHECK(v4a::make_move_patch(before, before, "f.txt", "g.txt").view().find("*** Move to: g.txt") !=
          std::string::npos);
    CHECK(v4a::make_add_patch("n.txt", "x").view() ==
          "*** Begin Patch\n*** Add File: n.txt\n+x\n\\ No newline at end of file\n*** End Patch\n");
    CHECK(v4a::make_delete_patch("d.txt").view() == "*** Begin Patch\n*** Delete File: d.txt\n*** End Patch\n");
    CHECK(v4a::normalize("  a   b  ", v4a::Level::Collapse).view() == "a b");
    CHECK(v4a::classify_path("src/a.rs") == v4a::PathClass::Relative);
    CHECK(v4a::classify_path("../x") == v4a::PathClass::ParentEscape);
    CHECK(thrown([] { v4a::classify_path("\xFF"); }).status() == v4a::Status::InvalidUtf8);

    CHECK(v4a::tool_schema(v4a::Flavor::Mcp, v4a::Shape::File).find("\"inputSchema\"") != std::string::npos);
    CHECK(v4a::tool_schema(static_cast<v4a::Flavor>(9), v4a::Shape::Input).empty());
    CHECK(v4a::grammar().find("BEGIN_PATCH") != std::string::npos);
    CHECK(v4a::file_grammar().find("start: operation") != std::string::npos);
    CHECK(v4a::instructions().find("*** Begin Patch") != std::string::npos);
    CHECK(v4a::status_name(v4a::Status::FuzzLimit) == "FUZZ_LIMIT");
    CHECK(v4a::status_name(static_cast<v4a::Status>(999)) == "UNKNOWN");
    CHECK(v4a::level_name(v4a::Level::TrimEnd) == "trim_end");
    CHECK(v4a::abi_matches() && v4a::version() == V4A_VERSION);
}

int main() {
    test_apply_and_views();
    test_errors_carry_diagnostics();
    test_multi_file();
    test_generation_and_tools();
    std::printf("test_cpp: %d checks, %d failures\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
