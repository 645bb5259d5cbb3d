/*
 * The shared test vectors of tests/vectors/ (the format is tests/vectors/README.md), read from
 * disk and checked, for the C tests that run them (test_vectors, test_soak): growable buffers,
 * files and directory trees, a case folder read into a vector_case, and the checks of a case
 * on a result or a result set, with the semantics of the Rust runner (tests/vectors.rs).
 *
 * Problems are written into a report buffer, one "  ...\n" line each (empty = passed); the
 * test decides how to show them. Every function is static inline, so a test that uses only
 * some of them compiles without unused-function warnings. Include it after
 * `#define _POSIX_C_SOURCE 200809L` (strtok_r, struct dirent).
 */
#ifndef V4A_TEST_VECTOR_FILES_H
#define V4A_TEST_VECTOR_FILES_H

#if !defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200809L
#error "define _POSIX_C_SOURCE 200809L before including vector_files.h"
#endif

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "v4a.h"

/* ----------------------------------------------------------------------------------------
 * Growable buffers, always NUL-terminated once written to.
 */

typedef struct {
    char *ptr;
    size_t len;
    size_t cap;
} buf;

static inline void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (q == NULL) {
        fprintf(stderr, "out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return q;
}

static inline char *xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = (char *)xrealloc(NULL, n);
    memcpy(p, s, n);
    return p;
}

static inline void buf_add(buf *b, const void *data, size_t n) {
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->ptr = (char *)xrealloc(b->ptr, b->cap);
    }
    if (n) {
        memcpy(b->ptr + b->len, data, n);
    }
    b->len += n;
    b->ptr[b->len] = 0;
}

static inline void buf_str(buf *b, const char *s) {
    buf_add(b, s, strlen(s));
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline void buf_printf(buf *b, const char *fmt, ...) {
    char tmp[1024];
    int n;
    va_list ap;
    va_start(ap, fmt);
    n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0) {
        buf_add(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
    }
}

/* Bytes shown as a quoted string with escapes, at most `max` bytes. */
static inline void buf_show(buf *b, const uint8_t *p, size_t n, size_t max) {
    size_t i;
    buf_add(b, "\"", 1);
    for (i = 0; i < n && i < max; i++) {
        uint8_t c = p[i];
        if (c == '\n') {
            buf_add(b, "\\n", 2);
        } else if (c == '\r') {
            buf_add(b, "\\r", 2);
        } else if (c == '\t') {
            buf_add(b, "\\t", 2);
        } else if (c == '"' || c == '\\') {
            buf_printf(b, "\\%c", c);
        } else if (c >= 0x20 && c < 0x7F) {
            buf_add(b, &c, 1);
        } else {
            buf_printf(b, "\\x%02x", c);
        }
    }
    buf_add(b, "\"", 1);
    if (n > max) {
        buf_printf(b, "... (%zu bytes)", n);
    }
}

/* ----------------------------------------------------------------------------------------
 * Files and directories.
 */

static inline char *path_join(const char *a, const char *b) {
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = (char *)xrealloc(NULL, n);
    snprintf(p, n, "%s/%s", a, b);
    return p;
}

static inline int exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

static inline int is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Reads a whole file into `out` (NUL-terminated); returns 0 when it cannot be read. */
static inline int read_file(const char *path, buf *out) {
    FILE *f = fopen(path, "rb");
    char chunk[65536];
    size_t n;
    out->ptr = NULL;
    out->len = out->cap = 0;
    if (f == NULL) {
        return 0;
    }
    buf_add(out, "", 0);
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        buf_add(out, chunk, n);
    }
    fclose(f);
    return 1;
}

static inline int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted entry names of a directory (without . and ..); returns the count, -1 when it
 * cannot be read. */
static inline int list_dir(const char *dir, char ***names_out) {
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    int n = 0;
    *names_out = NULL;
    if (d == NULL) {
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            names = (char **)xrealloc(names, sizeof(char *) * (size_t)(n + 1));
            names[n++] = xstrdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof(char *), cmp_str);
    *names_out = names;
    return n;
}

static inline void free_names(char **names, int n) {
    int i;
    for (i = 0; i < n; i++) {
        free(names[i]);
    }
    free(names);
}

/* ----------------------------------------------------------------------------------------
 * A map from relative path to bytes, kept sorted by path (byte order, like a BTreeMap).
 */

typedef struct {
    char *path;
    uint8_t *data;
    size_t len;
} file_entry;

typedef struct {
    file_entry *items;
    size_t len;
} file_map;

static inline file_entry *map_get(const file_map *m, const char *path) {
    size_t i;
    for (i = 0; i < m->len; i++) {
        if (strcmp(m->items[i].path, path) == 0) {
            return &m->items[i];
        }
    }
    return NULL;
}

static inline void map_remove(file_map *m, const char *path) {
    file_entry *e = map_get(m, path);
    if (e != NULL) {
        size_t i = (size_t)(e - m->items);
        free(e->path);
        free(e->data);
        memmove(&m->items[i], &m->items[i + 1], (m->len - i - 1) * sizeof(file_entry));
        m->len--;
    }
}

/* Inserts or replaces `path` with a copy of the bytes. */
static inline void map_put(file_map *m, const char *path, const uint8_t *data, size_t len) {
    size_t i;
    file_entry e;
    map_remove(m, path);
    e.path = xstrdup(path);
    e.data = (uint8_t *)xrealloc(NULL, len);
    if (len) {
        memcpy(e.data, data, len);
    }
    e.len = len;
    for (i = 0; i < m->len && strcmp(m->items[i].path, path) < 0; i++) {
    }
    m->items = (file_entry *)xrealloc(m->items, sizeof(file_entry) * (m->len + 1));
    memmove(&m->items[i + 1], &m->items[i], (m->len - i) * sizeof(file_entry));
    m->items[i] = e;
    m->len++;
}

static inline void map_copy(file_map *dst, const file_map *src) {
    size_t i;
    for (i = 0; i < src->len; i++) {
        map_put(dst, src->items[i].path, src->items[i].data, src->items[i].len);
    }
}

static inline void map_free(file_map *m) {
    size_t i;
    for (i = 0; i < m->len; i++) {
        free(m->items[i].path);
        free(m->items[i].data);
    }
    free(m->items);
    m->items = NULL;
    m->len = 0;
}

/* Every file under `root`, keyed by its path relative to `root` with '/' separators. */
static inline int read_tree(const char *root, const char *prefix, file_map *out) {
    char **names;
    int n = list_dir(root, &names), i, ok = 1;
    if (n < 0) {
        return 0;
    }
    for (i = 0; i < n && ok; i++) {
        char *full = path_join(root, names[i]);
        char *rel = prefix[0] ? path_join(prefix, names[i]) : xstrdup(names[i]);
        if (is_dir(full)) {
            ok = read_tree(full, rel, out);
        } else {
            buf b;
            ok = read_file(full, &b);
            if (ok) {
                map_put(out, rel, (const uint8_t *)b.ptr, b.len);
            }
            free(b.ptr);
        }
        free(full);
        free(rel);
    }
    free_names(names, n);
    return ok;
}

/* Compares the produced files with the wanted ones (`where`: "after/", ...), byte for byte. */
static inline void compare_files(const file_map *want, const file_map *got, const char *where,
                                 buf *report) {
    size_t i;
    for (i = 0; i < want->len; i++) {
        const file_entry *g = map_get(got, want->items[i].path);
        const file_entry *w = &want->items[i];
        if (g == NULL) {
            buf_printf(report, "  %s: expected in %s, missing from the result\n", w->path, where);
        } else if (g->len != w->len || (w->len && memcmp(g->data, w->data, w->len) != 0)) {
            buf_printf(report, "  %s differs\n    expected: ", w->path);
            buf_show(report, w->data, w->len, 800);
            buf_printf(report, "\n    actual:   ");
            buf_show(report, g->data, g->len, 800);
            buf_add(report, "\n", 1);
        }
    }
    for (i = 0; i < got->len; i++) {
        if (map_get(want, got->items[i].path) == NULL) {
            buf_printf(report, "  %s: present in the result, not expected: ", got->items[i].path);
            buf_show(report, got->items[i].data, got->items[i].len, 400);
            buf_add(report, "\n", 1);
        }
    }
}

/* ----------------------------------------------------------------------------------------
 * Small text files: non-blank lines without terminators, trimmed.
 */

typedef struct {
    char **lines;
    size_t len;
} lines_t;

static inline int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Removes surrounding ASCII whitespace in place (as Rust's trim does for these files). */
static inline char *trim(char *s) {
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

/* The non-blank lines of a file, trimmed; returns 0 (and no lines) when it cannot be read. */
static inline int read_lines(const char *path, lines_t *out) {
    buf text;
    char *line, *save = NULL;
    out->lines = NULL;
    out->len = 0;
    if (!read_file(path, &text)) {
        return 0;
    }
    for (line = strtok_r(text.ptr, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *t = trim(line);
        if (t[0]) {
            out->lines = (char **)xrealloc(out->lines, sizeof(char *) * (out->len + 1));
            out->lines[out->len++] = xstrdup(t);
        }
    }
    free(text.ptr);
    return 1;
}

static inline void lines_free(lines_t *l) {
    size_t i;
    for (i = 0; i < l->len; i++) {
        free(l->lines[i]);
    }
    free(l->lines);
    l->lines = NULL;
    l->len = 0;
}

/* A decimal number, surrounding whitespace allowed. */
static inline int parse_u32(const char *s, uint32_t *out) {
    char *end;
    unsigned long v;
    while (is_space(*s)) {
        s++;
    }
    if (*s < '0' || *s > '9') {
        return 0;
    }
    errno = 0;
    v = strtoul(s, &end, 10);
    while (is_space(*end)) {
        end++;
    }
    if (errno || *end != 0 || v > UINT32_MAX) {
        return 0;
    }
    *out = (uint32_t)v;
    return 1;
}

/* ----------------------------------------------------------------------------------------
 * A case folder.
 */

typedef struct {
    buf patch;
    file_map before, after;
    lines_t error;  /* the `error` file: the status, then the checks; none for a success */
    lines_t expect; /* the `expect` lines */
    char *mode;     /* the `mode` word; NULL for a multi-file case */
    v4a_options options;
} vector_case;

/* Reads the `options` lines into `o`; returns 0 (with a report) on a malformed file. */
static inline int vector_options(const lines_t *lines, v4a_options *o, buf *report) {
    static const char *const levels[] = {"exact", "trim_end", "trim", "collapse", "fold"};
    size_t i;
    v4a_options_init(o);
    for (i = 0; i < lines->len; i++) {
        char *eq = strchr(lines->lines[i], '=');
        char *k, *v;
        if (eq == NULL) {
            buf_printf(report, "  bad vector: bad option line \"%s\"\n", lines->lines[i]);
            return 0;
        }
        *eq = 0;
        k = trim(lines->lines[i]);
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
        } else if (strcmp(k, "first_match") == 0 || strcmp(k, "already_applied_error") == 0 ||
                   strcmp(k, "ensure_final_newline") == 0) {
            uint32_t flag;
            if (strcmp(v, "true") == 0) {
                flag = 1;
            } else if (strcmp(v, "false") == 0) {
                flag = 0;
            } else {
                buf_printf(report, "  bad vector: option %s: expected true or false\n", k);
                return 0;
            }
            if (k[0] == 'f') {
                o->first_match = flag;
            } else if (k[0] == 'a') {
                o->already_applied_is_error = flag;
            } else {
                o->ensure_final_newline = flag;
            }
        } else if (strcmp(k, "add_file_line_ending") == 0) {
            if (strcmp(v, "lf") == 0) {
                o->add_file_line_ending = V4A_LINE_ENDING_LF;
            } else if (strcmp(v, "crlf") == 0) {
                o->add_file_line_ending = V4A_LINE_ENDING_CRLF;
            } else {
                buf_printf(report, "  bad vector: add_file_line_ending \"%s\"\n", v);
                return 0;
            }
        } else {
            buf_printf(report, "  bad vector: unknown option \"%s\"\n", k);
            return 0;
        }
    }
    return 1;
}

static inline void vector_free(vector_case *c) {
    free(c->patch.ptr);
    map_free(&c->before);
    map_free(&c->after);
    lines_free(&c->error);
    lines_free(&c->expect);
    free(c->mode);
    memset(c, 0, sizeof *c);
}

/* Reads a case folder. Returns 0, with a report, for a case that cannot be run; an unknown
 * entry is reported too, but the case is read. Free it with vector_free in either case. */
static inline int vector_read(vector_case *c, const char *dir, buf *report) {
    enum { PATCH, BEFORE, AFTER, ERROR, MODE, OPTIONS, EXPECT, ENTRIES };
    static const char *const names[ENTRIES] = {"patch", "before",  "after", "error",
                                               "mode",  "options", "expect"};
    char *p[ENTRIES], **entries;
    int n_entries = list_dir(dir, &entries), i, ok = 0;
    size_t k;
    buf mode;
    lines_t options;
    memset(c, 0, sizeof *c);
    for (i = 0; i < n_entries; i++) {
        for (k = 0; k < ENTRIES && strcmp(entries[i], names[k]) != 0; k++) {
        }
        if (k == ENTRIES) {
            buf_printf(report, "  bad vector: unknown entry \"%s\"\n", entries[i]);
        }
    }
    free_names(entries, n_entries);
    for (k = 0; k < ENTRIES; k++) {
        p[k] = path_join(dir, names[k]);
    }
    if (!read_file(p[PATCH], &c->patch)) {
        buf_printf(report, "  bad vector: missing `patch` file\n");
    } else if (is_dir(p[BEFORE]) && !read_tree(p[BEFORE], "", &c->before)) {
        buf_printf(report, "  bad vector: cannot read before/\n");
    } else if (read_lines(p[ERROR], &c->error) && c->error.len == 0) {
        buf_printf(report, "  bad vector: `error` is empty\n");
    } else if (c->error.len && exists(p[AFTER])) {
        buf_printf(report, "  bad vector: a case has either `after/` or `error`, not both\n");
    } else if (is_dir(p[AFTER]) && !read_tree(p[AFTER], "", &c->after)) {
        buf_printf(report, "  bad vector: cannot read after/\n");
    } else {
        if (read_file(p[MODE], &mode)) {
            c->mode = xstrdup(trim(mode.ptr));
            free(mode.ptr);
        }
        read_lines(p[EXPECT], &c->expect);
        read_lines(p[OPTIONS], &options);
        ok = vector_options(&options, &c->options, report);
        lines_free(&options);
    }
    for (k = 0; k < ENTRIES; k++) {
        free(p[k]);
    }
    return ok;
}

/* ----------------------------------------------------------------------------------------
 * The checks of a case.
 */

/* The `error` checks on an error. */
static inline void vector_check_error(const lines_t *spec, const v4a_error *e, buf *report) {
    size_t before = report->len, i;
    const char *got = v4a_status_str(e->status);
    if (strcmp(got, spec->lines[0]) != 0) {
        buf_printf(report, "  status: expected %s, got %s\n", spec->lines[0], got);
    }
    for (i = 1; i < spec->len; i++) {
        char *line = xstrdup(spec->lines[i]);
        char *sep = strstr(line, ": ");
        const char *k, *v;
        int ok = 0;
        uint32_t n;
        if (sep == NULL) {
            buf_printf(report, "  bad vector: bad error check \"%s\"\n", line);
            free(line);
            continue;
        }
        *sep = 0;
        k = line;
        v = sep + 2;
        if (strcmp(k, "contains") == 0) {
            ok = view_contains(e->message, v);
        } else if (strcmp(k, "line") == 0) {
            ok = parse_u32(v, &n) && e->patch_line != 0 && e->patch_line == n;
        } else if (strcmp(k, "hunk") == 0) {
            ok = parse_u32(v, &n) && e->hunk != 0 && e->hunk == n;
        } else if (strcmp(k, "path") == 0) {
            ok = view_equals(e->path, v, strlen(v));
        } else if (strcmp(k, "candidates") == 0) {
            /* exactly this list of numbers (unparsable items are skipped, as in Rust) */
            char *list = xstrdup(v), *save = NULL, *tok;
            size_t count = 0;
            ok = 1;
            for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                if (parse_u32(tok, &n)) {
                    ok = ok && count < e->candidates.len && e->candidates.ptr[count] == n;
                    count++;
                }
            }
            ok = ok && count == e->candidates.len;
            free(list);
        } else if (strcmp(k, "offset") == 0) {
            ok = parse_u32(v, &n) && e->byte_offset != V4A_NO_OFFSET && e->byte_offset == n;
        } else if (strcmp(k, "suggestion") == 0) {
            ok = view_contains(e->suggestion, v);
        } else if (strcmp(k, "corrected") == 0) {
            ok = view_contains(e->corrected_hunk, v);
        } else {
            buf_printf(report, "  bad vector: unknown error check \"%s\"\n", k);
            free(line);
            continue;
        }
        if (!ok) {
            buf_printf(report, "  check failed: `%s: %s`\n", k, v);
        }
        free(line);
    }
    if (report->len > before) {
        buf_printf(report, "    status: %s\n    message: ", got);
        buf_show(report, e->message.ptr, e->message.len, 800);
        buf_printf(report, "\n    line %u, hunk %u, %zu candidates\n", (unsigned)e->patch_line,
                   (unsigned)e->hunk, e->candidates.len);
    }
}

static inline uint32_t hunk_flag_bit(const char *name) {
    if (strcmp(name, "reindented") == 0) {
        return V4A_HUNK_REINDENTED;
    }
    if (strcmp(name, "already_applied") == 0) {
        return V4A_HUNK_ALREADY_APPLIED;
    }
    if (strcmp(name, "end_of_file") == 0) {
        return V4A_HUNK_END_OF_FILE;
    }
    if (strcmp(name, "out_of_order") == 0) {
        return V4A_HUNK_OUT_OF_ORDER;
    }
    return 0;
}

/* An updated file's result with the names that select it in `expect` lines. */
typedef struct {
    const v4a_result *result;
    const char *names[2]; /* path and move destination; NULL when absent */
} updated_file;

/* One `hunk N WHAT: RHS` check on a hunk report. */
static inline void vector_check_hunk(const v4a_hunk_report *h, uint32_t index, const char *what,
                              char *rhs, const char *original, buf *report) {
    if (strcmp(what, "level") == 0) {
        if (strcmp(v4a_level_str(h->level), rhs) != 0) {
            buf_printf(report, "  hunk %u level: expected %s, got %s\n", (unsigned)index, rhs,
                       v4a_level_str(h->level));
        }
    } else if (strcmp(what, "flags") == 0) {
        uint32_t want = 0;
        if (strcmp(rhs, "none") != 0) {
            char *list = xstrdup(rhs), *save = NULL, *f;
            for (f = strtok_r(list, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
                uint32_t bit = hunk_flag_bit(trim(f));
                if (bit == 0) {
                    buf_printf(report, "  bad vector: unknown flag \"%s\"\n", f);
                }
                want |= bit;
            }
            free(list);
        }
        if (h->flags != want) {
            buf_printf(report, "  hunk %u flags: expected %s (0x%x), got 0x%x\n", (unsigned)index,
                       rhs, (unsigned)want, (unsigned)h->flags);
        }
    } else if (strcmp(what, "old") == 0 || strcmp(what, "new") == 0) {
        uint32_t start, len;
        char *comma = strchr(rhs, ',');
        uint32_t got_start = what[0] == 'o' ? h->old_start : h->new_start;
        uint32_t got_len = what[0] == 'o' ? h->old_len : h->new_len;
        if (comma == NULL) {
            buf_printf(report, "  bad vector: \"%s\"\n", original);
            return;
        }
        *comma = 0;
        if (!parse_u32(rhs, &start) || !parse_u32(comma + 1, &len)) {
            buf_printf(report, "  bad vector: \"%s\"\n", original);
        } else if (start != got_start || len != got_len) {
            buf_printf(report, "  hunk %u %s: expected %u,%u, got %u,%u\n", (unsigned)index, what,
                       (unsigned)start, (unsigned)len, (unsigned)got_start, (unsigned)got_len);
        }
    } else {
        buf_printf(report, "  bad vector: unknown hunk check \"%s\"\n", what);
    }
}

/* One `expect` line on the updated files' results. */
static inline void vector_check_expect(const char *original, const updated_file *updated,
                                       size_t n_updated, buf *report) {
    char *line = xstrdup(original);
    char *colon = strchr(line, ':');
    char *words[8];
    size_t n = 0, w0 = 0, i;
    const char *path = NULL;
    const v4a_result *r = NULL;
    char *rhs, *tok, *save = NULL;
    uint32_t value, index;
    v4a_hunk_reports hunks;
    if (colon == NULL) {
        buf_printf(report, "  bad vector: expect line without ':': \"%s\"\n", original);
        goto done;
    }
    *colon = 0;
    rhs = trim(colon + 1);
    for (tok = strtok_r(line, " \t", &save); tok && n < 8; tok = strtok_r(NULL, " \t", &save)) {
        words[n++] = tok;
    }
    if (n == 0) {
        buf_printf(report, "  bad vector: empty expect key\n");
        goto done;
    }
    /* An optional leading PATH, except for "fuzz PATH". */
    if (n == 2 && strcmp(words[0], "fuzz") == 0) {
        path = words[1];
        n = 1;
    } else if (strcmp(words[0], "fuzz") != 0 && strcmp(words[0], "hunks") != 0 &&
               strcmp(words[0], "hunk") != 0) {
        path = words[0];
        w0 = 1;
    }
    for (i = 0; i < n_updated && r == NULL; i++) {
        if (path == NULL || (updated[i].names[0] && strcmp(updated[i].names[0], path) == 0) ||
            (updated[i].names[1] && strcmp(updated[i].names[1], path) == 0)) {
            r = updated[i].result;
        }
    }
    if (r == NULL) {
        buf_printf(report, "  expect \"%s\": no updated file %s in the result\n", original,
                   path ? path : "(default)");
        goto done;
    }
    hunks = v4a_result_hunks(r);
    if (n - w0 == 1 && strcmp(words[w0], "fuzz") == 0) {
        if (!parse_u32(rhs, &value)) {
            buf_printf(report, "  bad vector: \"%s\"\n", original);
        } else if (v4a_result_fuzz(r) != value) {
            buf_printf(report, "  fuzz: expected %u, got %u\n", (unsigned)value,
                       (unsigned)v4a_result_fuzz(r));
        }
    } else if (n - w0 == 1 && strcmp(words[w0], "hunks") == 0) {
        if (!parse_u32(rhs, &value)) {
            buf_printf(report, "  bad vector: \"%s\"\n", original);
        } else if (hunks.len != value) {
            buf_printf(report, "  hunks: expected %u, got %zu\n", (unsigned)value, hunks.len);
        }
    } else if (n - w0 == 3 && strcmp(words[w0], "hunk") == 0) {
        if (!parse_u32(words[w0 + 1], &index) || index == 0) {
            buf_printf(report, "  bad vector: \"%s\"\n", original);
        } else if (index > hunks.len) {
            buf_printf(report, "  hunk %u: the result has only %zu hunk reports\n",
                       (unsigned)index, hunks.len);
        } else {
            vector_check_hunk(&hunks.ptr[index - 1], index, words[w0 + 2], rhs, original, report);
        }
    } else {
        buf_printf(report, "  bad vector: unknown expect line \"%s\"\n", original);
    }
done:
    free(line);
}

/* The checks of a case on an outcome: `error` (NULL for a success), the after-state it
 * produced (a mode case: its text as the one file "<text>", absent when empty) and the
 * results of its updated files. */
static inline void vector_check(const vector_case *c, const v4a_error *error,
                                const file_map *produced, const updated_file *updated,
                                size_t n_updated, buf *report) {
    size_t k;
    if (c->error.len && error == NULL) {
        buf_printf(report, "  expected error %s, but the patch applied\n", c->error.lines[0]);
        for (k = 0; k < produced->len; k++) {
            buf_printf(report, "    produced %s: ", produced->items[k].path);
            buf_show(report, produced->items[k].data, produced->items[k].len, 400);
            buf_add(report, "\n", 1);
        }
    } else if (c->error.len) {
        vector_check_error(&c->error, error, report);
    } else if (error != NULL) {
        buf_printf(report, "  expected success, got an error\n    status: %s\n    message: ",
                   v4a_status_str(error->status));
        buf_show(report, error->message.ptr, error->message.len, 800);
        buf_add(report, "\n", 1);
    } else {
        if (c->mode != NULL) {
            /* The text against the one file of after/ (none = empty), names ignored. */
            file_map want = {NULL, 0};
            if (c->after.len && c->after.items[0].len) {
                map_put(&want, "<text>", c->after.items[0].data, c->after.items[0].len);
            }
            compare_files(&want, produced, "after/", report);
            map_free(&want);
        } else {
            compare_files(&c->after, produced, "after/", report);
        }
        for (k = 0; k < c->expect.len; k++) {
            vector_check_expect(c->expect.lines[k], updated, n_updated, report);
        }
    }
}

/* The checks of a mode case on its single-file result. */
static inline void vector_check_result(const vector_case *c, const v4a_result *r, buf *report) {
    const v4a_error *e = v4a_result_error(r);
    v4a_bytes text = v4a_result_text(r);
    updated_file updated = {NULL, {NULL, NULL}};
    file_map produced = {NULL, 0};
    updated.result = r;
    if (e == NULL && text.len) {
        map_put(&produced, "<text>", text.ptr, text.len);
    }
    vector_check(c, e, &produced, &updated, e == NULL, report);
    map_free(&produced);
}

/* Applies the file results of a set to a copy of `from` (the README's after-state). */
static inline void after_state(const v4a_result_set *set, const file_map *from, file_map *out) {
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

/* The checks of a multi-file case on its parsed patch and, when that parsed, its result set. */
static inline void vector_check_set(const vector_case *c, const v4a_patch *p,
                                    const v4a_result_set *set, buf *report) {
    const v4a_error *e = v4a_patch_status(p) != V4A_STATUS_OK ? v4a_patch_error(p)
                                                               : v4a_result_set_error(set);
    v4a_file_results files = v4a_result_set_files(set);
    updated_file *updated = (updated_file *)xrealloc(NULL, sizeof(updated_file) * files.len);
    file_map produced = {NULL, 0};
    size_t i, n = 0;
    if (e == NULL) {
        after_state(set, &c->before, &produced);
        for (i = 0; i < files.len; i++) {
            if (files.ptr[i].kind == V4A_OP_UPDATE) {
                updated[n].result = files.ptr[i].result;
                updated[n].names[0] = (const char *)files.ptr[i].path.ptr;
                updated[n].names[1] = (const char *)files.ptr[i].move_to.ptr;
                n++;
            }
        }
    }
    vector_check(c, e, &produced, updated, n, report);
    map_free(&produced);
    free(updated);
}

/* Sources for a parsed patch, taken from a file map (Add File entries absent); one per
 * operation, to free. */
static inline v4a_source *sources_from(const v4a_patch *p, const file_map *files) {
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

#endif /* V4A_TEST_VECTOR_FILES_H */
