// A tour of the v4a C++ wrapper (include/v4a.hpp, header-only over libv4a): apply a
// single-file diff and print its structured diff, catch the diagnostic of a patch that does
// not apply, then apply a multi-file patch atomically over sources held in memory.
//
// Build against an installed v4a:
//   c++ -std=c++17 apply_patch.cpp $(pkg-config --cflags --libs v4a) -o apply_patch
// or with CMake: find_package(v4a) and target_link_libraries(app PRIVATE v4a::v4a).
#include <v4a.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

static void single_file() {
    const std::string source = "def total(items):\n"
                               "    result = 0\n"
                               "    for item in items:\n"
                               "        result += item.price\n"
                               "    return result\n";
    const std::string diff = "@@ def total(items):\n"
                             "     for item in items:\n"
                             "-        result += item.price\n"
                             "+        result += item.price * item.quantity\n";
    v4a::Result result = v4a::apply(source, diff, v4a::Mode::Update,
                                    v4a::Options().diff(v4a::DiffStyle::Changes, 1));
    std::cout << "== single file (fuzz " << result.fuzz() << ")\n";
    static const char marks[] = {' ', '-', '+'};
    for (const v4a_diff_line &line : result.diff()) {
        std::string_view text(reinterpret_cast<const char *>(line.text.ptr), line.text.len);
        std::cout << marks[line.kind] << ' ' << line.old_line << ' ' << line.new_line << "  " << text << '\n';
    }
    std::cout << "== unified diff\n" << result.unified_diff(1).view();
}

static void diagnostic() {
    const std::string source = "def save(self):\n    self.flush()\n\ndef load(self):\n    self.flush()\n";
    try {
        v4a::apply(source, "@@\n-    self.flush()\n+    self.sync()\n");
    } catch (const v4a::Error &e) {
        std::cout << "== " << e.status_name() << ", hunk " << e.hunk() << ", candidates:";
        for (std::uint32_t line : e.candidates()) {
            std::cout << ' ' << line;
        }
        std::cout << '\n' << e.what() << '\n';
    }
}

static void multi_file() {
    v4a::Patch patch = v4a::Patch::parse("*** Begin Patch\n"
                                         "*** Update File: src/app.txt\n"
                                         "*** Move to: src/main.txt\n"
                                         "@@\n-hello\n+hello, world\n"
                                         "*** Add File: NOTES.md\n"
                                         "+# Notes\n"
                                         "*** Delete File: old.txt\n"
                                         "*** End Patch\n");
    // One source per operation, in the order of patch.ops(); Add File reads none.
    v4a::ResultSet files = patch.apply({{"hello\n"}, v4a::Source::absent(), {"obsolete\n"}});
    for (std::size_t i = 0; i < files.size(); i++) {
        v4a::FileResult f = files.file(i);
        std::cout << "== " << f.path;
        if (f.move_to) {
            std::cout << " -> " << *f.move_to;
        }
        std::cout << ": " << f.result.text().size() << " bytes\n";
    }
    std::cout << files.summary();
}

int main() {
    if (!v4a::abi_matches()) {
        std::cerr << "libv4a " << v4a::version() << " has another ABI than this header\n";
        return 1;
    }
    try {
        single_file();
        diagnostic();
        multi_file();
    } catch (const v4a::Error &e) {
        std::cerr << e.status_name() << ": " << e.what() << '\n';
        return 1;
    }
    return 0;
}
