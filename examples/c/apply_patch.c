/*
 * A tour of the v4a C API: apply a single-file diff and render the structured diff with its
 * character-level segments, show the diagnostic of a patch that does not apply, then apply a
 * multi-file patch atomically over sources held in memory.
 *
 * Build against an installed v4a:
 *   cc apply_patch.c $(pkg-config --cflags --libs v4a) -o apply_patch
 * or with CMake: find_package(v4a) and target_link_libraries(app PRIVATE v4a::v4a).
 */
#include <stdio.h>
#include <string.h>

#include <v4a.h>

/* Prints a view, which may hold any bytes (it is also NUL-terminated). */
static void print_view(const char *label, v4a_bytes view) {
    printf("%s%.*s", label, (int)view.len, (const char *)view.ptr);
}

/* One line of the structured diff, with its changed characters in [-...-] and {+...+}. */
static void print_diff_line(const v4a_result *result, const v4a_diff_line *line) {
    static const char marks[] = {' ', '-', '+'};
    v4a_segments segments = v4a_result_segments(result);
    size_t k;
    printf("%c %3u %3u  ", marks[line->kind], (unsigned)line->old_line, (unsigned)line->new_line);
    if (line->segment_count == 0) {
        printf("%.*s\n", (int)line->text.len, (const char *)line->text.ptr);
        return;
    }
    for (k = 0; k < line->segment_count; k++) {
        const v4a_segment *s = &segments.ptr[line->segment_start + k];
        const char *open = s->kind == V4A_DIFF_DELETE ? "[-" : s->kind == V4A_DIFF_ADD ? "{+" : "";
        const char *close = s->kind == V4A_DIFF_DELETE ? "-]" : s->kind == V4A_DIFF_ADD ? "+}" : "";
        printf("%s%.*s%s", open, (int)(s->end - s->start),
               (const char *)line->text.ptr + s->start, close);
    }
    printf("\n");
}

static int single_file(void) {
    const char *source = "def total(items):\n"
                         "    result = 0\n"
                         "    for item in items:\n"
                         "        result += item.price\n"
                         "    return result\n";
    const char *diff = "@@ def total(items):\n"
                       "     for item in items:\n"
                       "-        result += item.price\n"
                       "+        result += item.price * item.quantity\n";
    v4a_options options = V4A_OPTIONS_INIT;
    v4a_result *result = NULL;
    v4a_diff_lines lines;
    v4a_status status;
    size_t i;

    options.diff_style = V4A_DIFF_STYLE_CHANGES;
    options.diff_context = 1;
    options.refine = 1;
    status = v4a_apply((const uint8_t *)source, strlen(source), (const uint8_t *)diff,
                       strlen(diff), V4A_MODE_UPDATE, &options, &result);
    if (status != V4A_STATUS_OK) {
        const v4a_error *e = v4a_result_error(result);
        fprintf(stderr, "%s: %.*s\n", v4a_status_str(status), e ? (int)e->message.len : 0,
                e ? (const char *)e->message.ptr : "");
        v4a_result_free(result);
        return 1;
    }
    printf("== single file (fuzz %u)\n", (unsigned)v4a_result_fuzz(result));
    lines = v4a_result_diff(result);
    for (i = 0; i < lines.len; i++) {
        print_diff_line(result, &lines.ptr[i]);
    }
    print_view("== new text\n", v4a_result_text(result));
    v4a_result_free(result);
    return 0;
}

static int diagnostic(void) {
    const char *source = "def save(self):\n    self.flush()\n\ndef load(self):\n    self.flush()\n";
    const char *diff = "@@\n-    self.flush()\n+    self.sync()\n";
    v4a_result *result = NULL;
    const v4a_error *e;
    size_t i;
    v4a_status status = v4a_apply((const uint8_t *)source, strlen(source), (const uint8_t *)diff,
                                  strlen(diff), V4A_MODE_UPDATE, NULL, &result);
    e = v4a_result_error(result);
    if (status != V4A_STATUS_AMBIGUOUS || e == NULL) {
        fprintf(stderr, "expected an ambiguity, got %s\n", v4a_status_str(status));
        v4a_result_free(result);
        return 1;
    }
    printf("== %s (%s), hunk %u, candidates:", v4a_status_str(e->status),
           v4a_status_category(e->status), (unsigned)e->hunk);
    for (i = 0; i < e->candidates.len; i++) {
        printf(" %u", (unsigned)e->candidates.ptr[i]);
    }
    print_view("\n", e->message);
    printf("\n");
    v4a_result_free(result);
    return 0;
}

static int multi_file(void) {
    const char *patch_text = "*** Begin Patch\n"
                             "*** Update File: src/app.txt\n"
                             "*** Move to: src/main.txt\n"
                             "@@\n"
                             "-hello\n"
                             "+hello, world\n"
                             "*** Add File: NOTES.md\n"
                             "+# Notes\n"
                             "*** Delete File: old.txt\n"
                             "*** End Patch\n";
    v4a_patch *patch = NULL;
    v4a_result_set *set = NULL;
    v4a_source sources[3];
    v4a_ops ops;
    v4a_file_results files;
    size_t i;
    int rc = 0;

    if (v4a_patch_parse((const uint8_t *)patch_text, strlen(patch_text), &patch) !=
        V4A_STATUS_OK) {
        v4a_patch_free(patch);
        return 1;
    }
    /* One source per operation: here from memory; an editor would read its buffers. */
    ops = v4a_patch_ops(patch);
    memset(sources, 0, sizeof sources);
    for (i = 0; i < ops.len && i < 3; i++) {
        const char *text = NULL;
        if (ops.ptr[i].path_class != V4A_PATH_RELATIVE) {
            fprintf(stderr, "refusing to touch %s\n", (const char *)ops.ptr[i].path.ptr);
            v4a_patch_free(patch);
            return 1;
        }
        if (strcmp((const char *)ops.ptr[i].path.ptr, "src/app.txt") == 0) {
            text = "hello\n";
        } else if (strcmp((const char *)ops.ptr[i].path.ptr, "old.txt") == 0) {
            text = "obsolete\n";
        }
        if (text != NULL) {
            sources[i].ptr = (const uint8_t *)text;
            sources[i].len = strlen(text);
            sources[i].present = 1;
        }
    }
    if (v4a_patch_apply(patch, sources, ops.len, NULL, &set) != V4A_STATUS_OK) {
        const v4a_error *e = v4a_result_set_error(set);
        fprintf(stderr, "%.*s\n", e ? (int)e->message.len : 0, e ? (const char *)e->message.ptr : "");
        rc = 1;
    } else {
        files = v4a_result_set_files(set);
        for (i = 0; i < files.len; i++) {
            const v4a_file_result *f = &files.ptr[i];
            v4a_bytes text = v4a_result_text(f->result);
            printf("== %s%s%s: %zu bytes\n", (const char *)f->path.ptr, f->move_to.ptr ? " -> " : "",
                   f->move_to.ptr ? (const char *)f->move_to.ptr : "", text.len);
        }
        print_view("", v4a_result_set_summary(set));
    }
    v4a_result_set_free(set);
    v4a_patch_free(patch);
    return rc;
}

int main(void) {
    if (v4a_abi_version() != V4A_ABI_VERSION) {
        fprintf(stderr, "libv4a has ABI %u, this program was built for %u\n",
                (unsigned)v4a_abi_version(), (unsigned)V4A_ABI_VERSION);
        return 1;
    }
    fprintf(stderr, "v4a %s\n", v4a_version());
    return single_file() || diagnostic() || multi_file();
}
