/* The shared test vectors for the C tests (vectors.h). */
#define _POSIX_C_SOURCE 200809L

#include "vectors.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------------------------------------
 * Reading a case folder.
 */

static int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Removes surrounding ASCII whitespace in place. */
static char *trim(char *s) {
    char *end;
    while (is_space(*s)) {
        s++;
    }
    end = s + strlen(s);
    while (end > s && is_space(end[-1])) {
        *--end = 0;
    }
    return s;
}

static int parse_u32(const char *s, uint32_t *out) {
    char *end;
    unsigned long v;
    if (*s < '0' || *s > '9') {
        return 0;
    }
    errno = 0;
    v = strtoul(s, &end, 10);
    if (errno || *end != 0 || v > UINT32_MAX) {
        return 0;
    }
    *out = (uint32_t)v;
    return 1;
}

static int parse_flag(const char *k, const char *v, uint32_t *out, buf *report) {
    if (strcmp(v, "true") == 0 || strcmp(v, "false") == 0) {
        *out = v[0] == 't';
        return 1;
    }
    buf_printf(report, "  bad vector: option %s: expected true or false\n", k);
    return 0;
}

/* The `options` file (the input of a case): `key=value` lines. */
static int read_options(char *text, v4a_options *o, buf *report) {
    static const char *const levels[] = {"exact", "trim_end", "trim", "collapse", "fold"};
    char *line, *save = NULL;
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '='), *k, *v;
        if (trim(line)[0] == 0) {
            continue;
        }
        if (eq == NULL) {
            buf_printf(report, "  bad vector: bad option line \"%s\"\n", line);
            return 0;
        }
        *eq = 0;
        k = trim(line);
        v = trim(eq + 1);
        if (strcmp(k, "max_level") == 0) {
            uint32_t l;
            for (l = 0; l < 5 && strcmp(v, levels[l]) != 0; l++) {
            }
            if (l == 5) {
                buf_printf(report, "  bad vector: unknown level \"%s\"\n", v);
                return 0;
            }
            o->max_level = l;
        } else if (strcmp(k, "max_fuzz") == 0) {
            if (!parse_u32(v, &o->max_fuzz)) {
                buf_printf(report, "  bad vector: max_fuzz \"%s\"\n", v);
                return 0;
            }
        } else if (strcmp(k, "first_match") == 0) {
            if (!parse_flag(k, v, &o->first_match, report)) {
                return 0;
            }
        } else if (strcmp(k, "already_applied_error") == 0) {
            if (!parse_flag(k, v, &o->already_applied_is_error, report)) {
                return 0;
            }
        } else if (strcmp(k, "ensure_final_newline") == 0) {
            if (!parse_flag(k, v, &o->ensure_final_newline, report)) {
                return 0;
            }
        } else if (strcmp(k, "add_file_line_ending") == 0 &&
                   (strcmp(v, "lf") == 0 || strcmp(v, "crlf") == 0)) {
            o->add_file_line_ending = v[0] == 'l' ? V4A_LINE_ENDING_LF : V4A_LINE_ENDING_CRLF;
        } else {
            buf_printf(report, "  bad vector: unknown option \"%s=%s\"\n", k, v);
            return 0;
        }
    }
    return 1;
}

void vector_free(vector_case *c) {
    free(c->patch.ptr);
    map_free(&c->before);
    map_free(&c->after);
    map_free(&c->base);
    free(c->outcome.ptr);
    free(c->mode);
    memset(c, 0, sizeof *c);
}

int vector_read(vector_case *c, const char *dir, buf *report) {
    enum { PATCH, BEFORE, AFTER, MODE, OPTIONS, OUTCOME, BASE, ENTRIES };
    static const char *const names[ENTRIES] = {"patch",   "before",  "after", "mode",
                                               "options", "outcome", "base"};
    char *p[ENTRIES], **entries;
    int n_entries = list_dir(dir, &entries), i, ok = 0;
    size_t k;
    buf text;
    memset(c, 0, sizeof *c);
    v4a_options_init(&c->options);
    for (i = 0; i < n_entries; i++) {
        for (k = 0; k < ENTRIES && strcmp(entries[i], names[k]) != 0; k++) {
        }
        if (k == ENTRIES) {
            buf_printf(report, "  bad vector: unknown entry \"%s\"%s\n", entries[i],
                       strcmp(entries[i], "error") == 0 || strcmp(entries[i], "expect") == 0
                           ? " (convert it with V4A_BLESS=1 cargo test -p v4a --test vectors)"
                           : "");
        }
    }
    free_names(entries, n_entries);
    for (k = 0; k < ENTRIES; k++) {
        p[k] = path_join(dir, names[k]);
    }
    c->has_after = is_dir(p[AFTER]);
    c->has_base = is_dir(p[BASE]);
    if (!read_file(p[PATCH], &c->patch)) {
        buf_printf(report, "  bad vector: missing `patch` file\n");
    } else if (!read_file(p[OUTCOME], &c->outcome)) {
        buf_printf(report, "  bad vector: no `outcome` file (bless it: V4A_BLESS=1 cargo test "
                           "-p v4a --test vectors)\n");
    } else if (is_dir(p[BEFORE]) && !read_tree(p[BEFORE], "", &c->before)) {
        buf_printf(report, "  bad vector: cannot read before/\n");
    } else if (c->has_after && !read_tree(p[AFTER], "", &c->after)) {
        buf_printf(report, "  bad vector: cannot read after/\n");
    } else if (c->has_base && !read_tree(p[BASE], "", &c->base)) {
        buf_printf(report, "  bad vector: cannot read base/\n");
    } else if (c->has_base && exists(p[MODE])) {
        buf_printf(report, "  bad vector: a `mode` case has no base/\n");
    } else {
        ok = 1;
        if (read_file(p[MODE], &text)) {
            c->mode = xstrdup(trim(text.ptr));
            free(text.ptr);
        }
        if (read_file(p[OPTIONS], &text)) {
            ok = read_options(text.ptr, &c->options, report);
            free(text.ptr);
        }
    }
    for (k = 0; k < ENTRIES; k++) {
        free(p[k]);
    }
    return ok;
}

/* ----------------------------------------------------------------------------------------
 * The canonical outcome (tests/vectors/README.md, "The outcome file").
 */

static void render_escaped(buf *out, const char *key, v4a_bytes v) {
    if (v.len) {
        buf_printf(out, "%s: ", key);
        buf_escape(out, v.ptr, v.len);
        buf_add(out, "\n", 1);
    }
}

/* `key:` and one `| ` line per '\n'-separated piece (`|` for an empty one). */
static void render_block(buf *out, const char *key, v4a_bytes v) {
    size_t start = 0, i;
    buf_printf(out, "%s:\n", key);
    for (i = 0; i <= v.len; i++) {
        if (i == v.len || v.ptr[i] == '\n') {
            if (i == start) {
                buf_add(out, "|\n", 2);
            } else {
                buf_add(out, "| ", 2);
                buf_escape(out, v.ptr + start, i - start);
                buf_add(out, "\n", 1);
            }
            start = i + 1;
        }
    }
}

void vector_render_error(buf *out, const v4a_error *e) {
    size_t i;
    buf_printf(out, "status: %s\n", v4a_status_str(e->status));
    render_block(out, "message", e->message);
    render_escaped(out, "path", e->path);
    if (e->patch_line) {
        buf_printf(out, "patch_line: %u\n", (unsigned)e->patch_line);
    }
    if (e->hunk) {
        buf_printf(out, "hunk: %u\n", (unsigned)e->hunk);
    }
    if (e->byte_offset != V4A_NO_OFFSET) {
        buf_printf(out, "byte_offset: %llu\n", (unsigned long long)e->byte_offset);
    }
    render_escaped(out, "input", e->input);
    for (i = 0; i < e->candidates.len; i++) {
        buf_printf(out, "%s%u", i ? "," : "candidates: ", (unsigned)e->candidates.ptr[i]);
    }
    if (e->candidates.len) {
        buf_add(out, "\n", 1);
    }
    if (e->suggestion.len) {
        render_block(out, "suggestion", e->suggestion);
    }
    if (e->closest_start) {
        /* thousandths, rounded the same way by every runner */
        unsigned long long milli =
            (unsigned long long)floor(e->closest_similarity * 1000.0 + 0.5);
        buf_printf(out, "closest: %u-%u similarity=%llu.%03llu\n", (unsigned)e->closest_start,
                   (unsigned)e->closest_end, milli / 1000, milli % 1000);
    }
    if (e->corrected_hunk.len) {
        render_block(out, "corrected_hunk", e->corrected_hunk);
    }
}

void vector_render_hunks(buf *out, const char *indent, const v4a_result *r) {
    /* The V4A_HUNK_* bits in order. */
    static const char *const flag_names[] = {"reindented",     "already_applied", "end_of_file",
                                             "out_of_order",   "merged",          "anchor_ignored",
                                             "context_relaxed"};
    v4a_hunk_reports hunks = v4a_result_hunks(r);
    size_t i, k;
    buf_printf(out, "%sfuzz: %u\n", indent, (unsigned)v4a_result_fuzz(r));
    for (i = 0; i < hunks.len; i++) {
        const v4a_hunk_report *h = &hunks.ptr[i];
        int any = 0;
        buf_printf(out,
                   "%shunk %zu: old=%u,%u new=%u,%u level=%s fuzz=%u candidates=%u "
                   "patch_line=%u flags=",
                   indent, i + 1, (unsigned)h->old_start, (unsigned)h->old_len,
                   (unsigned)h->new_start, (unsigned)h->new_len, v4a_level_str(h->level),
                   (unsigned)h->fuzz, (unsigned)h->candidates, (unsigned)h->patch_line);
        for (k = 0; k < sizeof flag_names / sizeof flag_names[0]; k++) {
            if (h->flags & (1u << k)) {
                buf_printf(out, "%s%s", any++ ? "," : "", flag_names[k]);
            }
        }
        buf_str(out, any ? " line_levels=" : "none line_levels=");
        for (k = 0; k < h->line_levels.len; k++) {
            buf_printf(out, "%s%s", k ? "," : "", v4a_level_str(h->line_levels.ptr[k]));
        }
        buf_str(out, h->line_levels.len ? "\n" : "none\n");
    }
}

void vector_render_result(buf *out, const v4a_result *r) {
    const v4a_error *e = v4a_result_error(r);
    if (e != NULL) {
        vector_render_error(out, e);
        return;
    }
    buf_printf(out, "status: OK\ntext: %zu bytes\n", v4a_result_text(r).len);
    vector_render_hunks(out, "", r);
}

void vector_render_set(buf *out, const v4a_patch *p, const v4a_result_set *set,
                       const file_map *after) {
    static const char *const kinds[] = {"add", "delete", "update"};
    const v4a_error *e = v4a_patch_status(p) != V4A_STATUS_OK ? v4a_patch_error(p)
                                                               : v4a_result_set_error(set);
    v4a_file_results files;
    size_t i;
    if (e != NULL) {
        vector_render_error(out, e);
        return;
    }
    files = v4a_result_set_files(set);
    buf_str(out, "status: OK\n");
    for (i = 0; i < files.len; i++) {
        const v4a_file_result *f = &files.ptr[i];
        buf_printf(out, "op %zu: %s ", i + 1, f->kind < 3 ? kinds[f->kind] : "unknown");
        buf_escape(out, f->path.ptr, f->path.len);
        if (f->move_to.ptr != NULL) {
            buf_str(out, " -> ");
            buf_escape(out, f->move_to.ptr, f->move_to.len);
        }
        buf_add(out, "\n", 1);
        vector_render_hunks(out, "  ", f->result);
    }
    for (i = 0; i < after->len; i++) {
        buf_str(out, "file ");
        buf_escape(out, (const uint8_t *)after->items[i].path, strlen(after->items[i].path));
        buf_printf(out, ": %zu bytes\n", after->items[i].len);
    }
}

/* ----------------------------------------------------------------------------------------
 * The checks of a case.
 */

static size_t line_end(const buf *b, size_t at) {
    const char *nl = memchr(b->ptr + at, '\n', b->len - at);
    return nl ? (size_t)(nl - b->ptr) + 1 : b->len;
}

/* The start of the line that ends at `end` (its '\n' included). */
static size_t line_start(const buf *b, size_t end) {
    size_t i = end;
    if (i > 0 && b->ptr[i - 1] == '\n') {
        i--;
    }
    while (i > 0 && b->ptr[i - 1] != '\n') {
        i--;
    }
    return i;
}

static void diff_line(buf *report, char mark, const char *p, size_t n) {
    buf_printf(report, "    %c", mark);
    buf_add(report, p, n && p[n - 1] == '\n' ? n - 1 : n);
    buf_str(report, n && p[n - 1] == '\n' ? "\n" : "\n    \\ no final newline\n");
}

/* The rendered outcome against the `outcome` file: the lines between their common first and
 * last lines. */
static void compare_outcome(const vector_case *c, const buf *got, buf *report) {
    const buf *want = &c->outcome;
    size_t pre = 0, line = 1, wend, gend, at;
    if (want->len == got->len && memcmp(want->ptr, got->ptr, got->len) == 0) {
        return;
    }
    /* the common first lines */
    while (pre < want->len && pre < got->len) {
        size_t w = line_end(want, pre), g = line_end(got, pre);
        if (w != g || memcmp(want->ptr + pre, got->ptr + pre, w - pre) != 0) {
            break;
        }
        pre = w;
        line++;
    }
    /* the common last lines, after the first difference */
    wend = want->len;
    gend = got->len;
    while (wend > pre && gend > pre) {
        size_t ws = line_start(want, wend), gs = line_start(got, gend);
        if (ws < pre || gs < pre || wend - ws != gend - gs ||
            memcmp(want->ptr + ws, got->ptr + gs, wend - ws) != 0) {
            break;
        }
        wend = ws;
        gend = gs;
    }
    buf_printf(report, "  outcome differs at line %zu (- the outcome file, + this run):\n",
               line);
    for (at = pre; at < wend; at = line_end(want, at)) {
        diff_line(report, '-', want->ptr + at, line_end(want, at) - at);
    }
    for (at = pre; at < gend; at = line_end(got, at)) {
        diff_line(report, '+', got->ptr + at, line_end(got, at) - at);
    }
}

void vector_check_result(const vector_case *c, const v4a_result *r, buf *report) {
    buf got = {NULL, 0, 0};
    v4a_bytes text = v4a_result_text(r);
    vector_render_result(&got, r);
    compare_outcome(c, &got, report);
    if (v4a_result_error(r) != NULL) {
        if (c->has_after) {
            buf_str(report, "  after/ exists, but the patch failed\n");
        }
    } else {
        /* the text against the one file of after/ (none = empty), names ignored */
        file_map want = {NULL, 0}, produced = {NULL, 0};
        if (c->after.len && c->after.items[0].len) {
            map_put(&want, "<text>", c->after.items[0].data, c->after.items[0].len);
        }
        if (text.len) {
            map_put(&produced, "<text>", text.ptr, text.len);
        }
        compare_files(&want, &produced, "after/", report);
        map_free(&want);
        map_free(&produced);
    }
    free(got.ptr);
}

void vector_check_set(const vector_case *c, const v4a_patch *p, const v4a_result_set *set,
                      buf *report) {
    buf got = {NULL, 0, 0};
    file_map produced = {NULL, 0};
    int ok = v4a_patch_status(p) == V4A_STATUS_OK && v4a_result_set_error(set) == NULL;
    if (ok) {
        after_state(set, &c->before, &produced);
    }
    vector_render_set(&got, p, set, &produced);
    compare_outcome(c, &got, report);
    if (ok) {
        compare_files(&c->after, &produced, "after/", report);
    } else if (c->has_after) {
        buf_str(report, "  after/ exists, but the patch failed\n");
    }
    map_free(&produced);
    free(got.ptr);
}

void after_state(const v4a_result_set *set, const file_map *from, file_map *out) {
    v4a_file_results files = v4a_result_set_files(set);
    size_t i;
    map_copy(out, from);
    for (i = 0; i < files.len; i++) {
        const v4a_file_result *f = &files.ptr[i];
        v4a_bytes t = v4a_result_text(f->result);
        if (f->kind == V4A_OP_DELETE) {
            map_remove(out, (const char *)f->path.ptr);
        } else if (f->move_to.ptr != NULL) {
            map_remove(out, (const char *)f->path.ptr);
            map_put(out, (const char *)f->move_to.ptr, t.ptr, t.len);
        } else {
            map_put(out, (const char *)f->path.ptr, t.ptr, t.len);
        }
    }
}

v4a_source *sources_from(const v4a_patch *p, const file_map *files) {
    v4a_ops ops = v4a_patch_ops(p);
    v4a_source *s = (v4a_source *)xrealloc(NULL, sizeof(v4a_source) * ops.len);
    size_t k;
    for (k = 0; k < ops.len; k++) {
        const file_entry *f = map_get(files, (const char *)ops.ptr[k].path.ptr);
        memset(&s[k], 0, sizeof s[k]);
        if (ops.ptr[k].kind != V4A_OP_ADD && f != NULL) {
            s[k].ptr = f->data;
            s[k].len = f->len;
            s[k].present = 1;
        }
    }
    return s;
}
