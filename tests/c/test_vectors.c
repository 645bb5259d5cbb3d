/*
 * Runs every shared test vector of tests/vectors/ through the C API, reading the files from
 * disk, with the semantics of the Rust runner (tests/vectors.rs; the format is described in
 * tests/vectors/README.md): `mode` cases through v4a_apply_mode_name, the others through
 * v4a_patch_parse + v4a_patch_apply, `options`, `expect` and `error` checks, and the whole
 * after-state compared byte for byte.
 *
 * Usage: test_vectors VECTORS_DIR [NAME_SUBSTRING]
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "v4a.h"

/* The smallest number of vectors the suite may hold (as the Rust runner). */
#define MIN_VECTORS 150

/* ----------------------------------------------------------------------------------------
 * Small utilities: growable buffers, reports, files.
 */

typedef struct {
    char *ptr;
    size_t len;
    size_t cap;
} buf;

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (q == NULL) {
        fprintf(stderr, "test_vectors: out of memory\n");
        exit(2);
    }
    return q;
}

static void buf_add(buf *b, const void *data, size_t n) {
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

static void buf_printf(buf *b, const char *fmt, ...) {
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
static void buf_show(buf *b, const uint8_t *p, size_t n, size_t max) {
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

static char *path_join(const char *a, const char *b) {
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = (char *)xrealloc(NULL, n);
    snprintf(p, n, "%s/%s", a, b);
    return p;
}

static char *xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = (char *)xrealloc(NULL, n);
    memcpy(p, s, n);
    return p;
}

static int is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

/* Reads a whole file; returns 0 on failure. */
static int read_file(const char *path, buf *out) {
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

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted entry names of a directory (without . and ..); returns the count, -1 on error. */
static int list_dir(const char *dir, char ***names_out) {
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    int n = 0;
    *names_out = NULL;
    if (d == NULL) {
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
            continue;
        }
        names = (char **)xrealloc(names, sizeof(char *) * (size_t)(n + 1));
        names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof(char *), cmp_str);
    *names_out = names;
    return n;
}

static void free_names(char **names, int n) {
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

static file_entry *map_get(const file_map *m, const char *path) {
    size_t i;
    for (i = 0; i < m->len; i++) {
        if (strcmp(m->items[i].path, path) == 0) {
            return &m->items[i];
        }
    }
    return NULL;
}

static void map_remove(file_map *m, const char *path) {
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
static void map_put(file_map *m, const char *path, const uint8_t *data, size_t len) {
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

static void map_copy(file_map *dst, const file_map *src) {
    size_t i;
    for (i = 0; i < src->len; i++) {
        map_put(dst, src->items[i].path, src->items[i].data, src->items[i].len);
    }
}

static void map_free(file_map *m) {
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
static int read_tree(const char *root, const char *prefix, file_map *out) {
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

/* ----------------------------------------------------------------------------------------
 * Small text files: non-empty lines without terminators, trimmed.
 */

typedef struct {
    char **lines;
    size_t len;
} lines_t;

static int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Removes surrounding ASCII whitespace in place (as Rust's trim does for these files). */
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

/* Splits a text file into its non-blank lines (each without its terminator). */
static lines_t lines_of(const buf *text) {
    lines_t out = {NULL, 0};
    size_t start = 0, i;
    for (i = 0; i <= text->len; i++) {
        if (i == text->len || text->ptr[i] == '\n') {
            size_t n = i - start;
            char *line = (char *)xrealloc(NULL, n + 1);
            memcpy(line, text->ptr + start, n);
            line[n] = 0;
            if (n && line[n - 1] == '\r') {
                line[n - 1] = 0;
            }
            if (trim(line)[0] != 0) {
                out.lines = (char **)xrealloc(out.lines, sizeof(char *) * (out.len + 1));
                out.lines[out.len++] = line;
            } else {
                free(line);
            }
            start = i + 1;
        }
    }
    return out;
}

static void lines_free(lines_t *l) {
    size_t i;
    for (i = 0; i < l->len; i++) {
        free(l->lines[i]);
    }
    free(l->lines);
}

static int parse_u32(const char *s, uint32_t *out) {
    char *end;
    unsigned long v;
    s = (const char *)trim((char *)s);
    if (*s < '0' || *s > '9') {
        return 0;
    }
    errno = 0;
    v = strtoul(s, &end, 10);
    if (errno || *trim(end) != 0 || v > UINT32_MAX) {
        return 0;
    }
    *out = (uint32_t)v;
    return 1;
}

/* ----------------------------------------------------------------------------------------
 * One case.
 */

static const char *const KNOWN_ENTRIES[] = {"patch", "before", "after", "error",
                                            "mode",  "options", "expect"};
static const char *const LEVEL_NAMES[] = {"exact", "trim_end", "trim", "collapse", "fold"};

/* Reads the `options` file into `o`; returns 0 (with a report) on a malformed file. */
static int build_options(const lines_t *lines, v4a_options *o, buf *report) {
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
            for (l = 0; l < 5 && strcmp(v, LEVEL_NAMES[l]) != 0; l++) {
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

/* An updated file's result with the names that select it in `expect` lines. */
typedef struct {
    const v4a_result *result;
    const char *names[2]; /* path and move destination; NULL when absent */
} applied_t;

/* The view contains `needle` (views may hold NUL bytes, so no strstr). */
static int contains(v4a_bytes v, const char *needle) {
    size_t n = strlen(needle), i;
    if (v.ptr == NULL || n > v.len) {
        return 0;
    }
    for (i = 0; i + n <= v.len; i++) {
        if (memcmp(v.ptr + i, needle, n) == 0) {
            return 1;
        }
    }
    return 0;
}

static int same_text(v4a_bytes v, const char *s) {
    return v.ptr != NULL && v.len == strlen(s) && memcmp(v.ptr, s, v.len) == 0;
}

static void check_error(const lines_t *spec, const v4a_error *e, buf *report) {
    size_t i;
    const char *got = v4a_status_str(e->status);
    if (strcmp(got, trim(spec->lines[0])) != 0) {
        buf_printf(report, "  status: expected %s, got %s\n", trim(spec->lines[0]), got);
    }
    for (i = 1; i < spec->len; i++) {
        char *line = spec->lines[i];
        char *sep = strstr(line, ": ");
        const char *k, *v;
        int ok = 0;
        uint32_t n;
        if (sep == NULL) {
            buf_printf(report, "  bad vector: bad error check \"%s\"\n", line);
            continue;
        }
        *sep = 0;
        k = line;
        v = sep + 2;
        if (strcmp(k, "contains") == 0) {
            ok = contains(e->message, v);
        } else if (strcmp(k, "line") == 0) {
            ok = parse_u32(v, &n) && e->patch_line != 0 && e->patch_line == n;
        } else if (strcmp(k, "hunk") == 0) {
            ok = parse_u32(v, &n) && e->hunk != 0 && e->hunk == n;
        } else if (strcmp(k, "path") == 0) {
            ok = same_text(e->path, v);
        } else if (strcmp(k, "candidates") == 0) {
            /* exactly this list of numbers (unparsable items are skipped, as in Rust) */
            uint32_t want[64];
            size_t count = 0, j;
            char *copy = xstrdup(v), *save = NULL, *tok;
            for (tok = strtok_r(copy, ",", &save); tok && count < 64;
                 tok = strtok_r(NULL, ",", &save)) {
                if (parse_u32(tok, &want[count])) {
                    count++;
                }
            }
            free(copy);
            ok = e->candidates.len == count;
            for (j = 0; ok && j < count; j++) {
                ok = e->candidates.ptr[j] == want[j];
            }
        } else if (strcmp(k, "offset") == 0) {
            ok = parse_u32(v, &n) && e->byte_offset != V4A_NO_OFFSET && e->byte_offset == n;
        } else if (strcmp(k, "suggestion") == 0) {
            ok = contains(e->suggestion, v);
        } else if (strcmp(k, "corrected") == 0) {
            ok = contains(e->corrected_hunk, v);
        } else {
            buf_printf(report, "  bad vector: unknown error check \"%s\"\n", k);
            continue;
        }
        if (!ok) {
            buf_printf(report, "  check failed: `%s: %s`\n", k, v);
        }
    }
    if (report->len) {
        buf_printf(report, "    status: %s\n    message: ", got);
        buf_show(report, e->message.ptr, e->message.len, 800);
        buf_printf(report, "\n    line %u, hunk %u, %zu candidates\n", (unsigned)e->patch_line,
                   (unsigned)e->hunk, e->candidates.len);
    }
}

static uint32_t flag_bit(const char *name) {
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

/* Checks one `expect` line against the updated files' results. */
static void check_expect(char *line, const applied_t *applied, size_t n_applied, buf *report) {
    char *colon = strchr(line, ':');
    char *words[8];
    size_t n = 0, w0 = 0, i;
    const char *path = NULL;
    const v4a_result *r = NULL;
    char *rhs, *tok, *save = NULL;
    char original[512];
    uint32_t value;
    snprintf(original, sizeof original, "%s", line);
    if (colon == NULL) {
        buf_printf(report, "  bad vector: expect line without ':': \"%s\"\n", original);
        return;
    }
    *colon = 0;
    rhs = trim(colon + 1);
    for (tok = strtok_r(line, " \t", &save); tok && n < 8; tok = strtok_r(NULL, " \t", &save)) {
        words[n++] = tok;
    }
    if (n == 0) {
        buf_printf(report, "  bad vector: empty expect key\n");
        return;
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
    for (i = 0; i < n_applied && r == NULL; i++) {
        if (path == NULL) {
            r = applied[i].result;
        } else if ((applied[i].names[0] && strcmp(applied[i].names[0], path) == 0) ||
                   (applied[i].names[1] && strcmp(applied[i].names[1], path) == 0)) {
            r = applied[i].result;
        }
    }
    if (r == NULL) {
        buf_printf(report, "  expect \"%s\": no updated file %s in the result\n", original,
                   path ? path : "(default)");
        return;
    }
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
        } else if (v4a_result_hunks(r).len != value) {
            buf_printf(report, "  hunks: expected %u, got %zu\n", (unsigned)value,
                       v4a_result_hunks(r).len);
        }
    } else if (n - w0 == 3 && strcmp(words[w0], "hunk") == 0) {
        uint32_t index;
        const char *what = words[w0 + 2];
        v4a_hunk_reports hunks = v4a_result_hunks(r);
        const v4a_hunk_report *h;
        if (!parse_u32(words[w0 + 1], &index) || index == 0) {
            buf_printf(report, "  bad vector: \"%s\"\n", original);
            return;
        }
        if (index > hunks.len) {
            buf_printf(report, "  hunk %u: the result has only %zu hunk reports\n",
                       (unsigned)index, hunks.len);
            return;
        }
        h = &hunks.ptr[index - 1];
        if (strcmp(what, "level") == 0) {
            if (strcmp(v4a_level_str(h->level), rhs) != 0) {
                buf_printf(report, "  hunk %u level: expected %s, got %s\n", (unsigned)index, rhs,
                           v4a_level_str(h->level));
            }
        } else if (strcmp(what, "flags") == 0) {
            uint32_t want = 0;
            if (strcmp(rhs, "none") != 0) {
                char *copy = xstrdup(rhs), *s2 = NULL, *f;
                for (f = strtok_r(copy, ",", &s2); f; f = strtok_r(NULL, ",", &s2)) {
                    uint32_t bit = flag_bit(trim(f));
                    if (bit == 0) {
                        buf_printf(report, "  bad vector: unknown flag \"%s\"\n", f);
                    }
                    want |= bit;
                }
                free(copy);
            }
            if (h->flags != want) {
                buf_printf(report, "  hunk %u flags: expected %s (0x%x), got 0x%x\n",
                           (unsigned)index, rhs, (unsigned)want, (unsigned)h->flags);
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
                buf_printf(report, "  hunk %u %s: expected %u,%u, got %u,%u\n", (unsigned)index,
                           what, (unsigned)start, (unsigned)len, (unsigned)got_start,
                           (unsigned)got_len);
            }
        } else {
            buf_printf(report, "  bad vector: unknown hunk check \"%s\"\n", what);
        }
    } else {
        buf_printf(report, "  bad vector: unknown expect line \"%s\"\n", original);
    }
}

/* Compares the produced files with `after/`, byte for byte. */
static void compare_files(const file_map *want, const file_map *got, buf *report) {
    size_t i;
    for (i = 0; i < want->len; i++) {
        const file_entry *g = map_get(got, want->items[i].path);
        const file_entry *w = &want->items[i];
        if (g == NULL) {
            buf_printf(report, "  %s: expected in after/, missing from the result\n", w->path);
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

/* Runs one case folder; fills `report` with the problems (empty = passed). */
static void run_case(const char *dir, buf *report) {
    char **entries;
    int n_entries = list_dir(dir, &entries), i;
    char *p_patch = path_join(dir, "patch"), *p_before = path_join(dir, "before"),
         *p_after = path_join(dir, "after"), *p_error = path_join(dir, "error"),
         *p_mode = path_join(dir, "mode"), *p_options = path_join(dir, "options"),
         *p_expect = path_join(dir, "expect");
    buf patch = {NULL, 0, 0}, text = {NULL, 0, 0};
    file_map before = {NULL, 0}, after = {NULL, 0}, produced = {NULL, 0};
    lines_t error_spec = {NULL, 0}, options_lines = {NULL, 0}, expect_lines = {NULL, 0};
    char *mode = NULL;
    v4a_options options;
    v4a_result *single = NULL;
    v4a_patch *parsed = NULL;
    v4a_result_set *set = NULL;
    applied_t applied[64];
    size_t n_applied = 0;
    const v4a_error *error = NULL;
    int has_error, ok;

    for (i = 0; i < n_entries; i++) {
        size_t k, known = 0;
        for (k = 0; k < sizeof KNOWN_ENTRIES / sizeof KNOWN_ENTRIES[0]; k++) {
            known |= strcmp(entries[i], KNOWN_ENTRIES[k]) == 0;
        }
        if (!known) {
            buf_printf(report, "  bad vector: unknown entry \"%s\"\n", entries[i]);
        }
    }
    free_names(entries, n_entries);
    if (!read_file(p_patch, &patch)) {
        buf_printf(report, "  bad vector: missing `patch` file\n");
        goto done;
    }
    if (is_dir(p_before) && !read_tree(p_before, "", &before)) {
        buf_printf(report, "  bad vector: cannot read before/\n");
        goto done;
    }
    has_error = exists(p_error);
    if (has_error) {
        read_file(p_error, &text);
        error_spec = lines_of(&text);
        free(text.ptr);
        if (error_spec.len == 0) {
            buf_printf(report, "  bad vector: `error` is empty\n");
            goto done;
        }
        if (exists(p_after)) {
            buf_printf(report, "  bad vector: a case has either `after/` or `error`, not both\n");
            goto done;
        }
    } else if (is_dir(p_after) && !read_tree(p_after, "", &after)) {
        buf_printf(report, "  bad vector: cannot read after/\n");
        goto done;
    }
    if (read_file(p_mode, &text)) {
        mode = xstrdup(trim(text.ptr));
        free(text.ptr);
    }
    if (read_file(p_options, &text)) {
        options_lines = lines_of(&text);
        free(text.ptr);
    }
    if (read_file(p_expect, &text)) {
        expect_lines = lines_of(&text);
        free(text.ptr);
    }
    if (!build_options(&options_lines, &options, report)) {
        goto done;
    }

    if (mode != NULL) {
        /* The single-file API: the first file of before/ is the source. */
        const uint8_t *src = before.len ? before.items[0].data : NULL;
        size_t src_len = before.len ? before.items[0].len : 0;
        v4a_status s = v4a_apply_mode_name(src, src_len, (const uint8_t *)patch.ptr, patch.len,
                                           (const uint8_t *)mode, strlen(mode), &options, &single);
        if (single == NULL || v4a_result_status(single) != s) {
            buf_printf(report, "  v4a_apply_mode_name returned %s without a consistent result\n",
                       v4a_status_str(s));
            goto done;
        }
        if (s == V4A_STATUS_OK) {
            v4a_bytes t = v4a_result_text(single);
            if (t.len) {
                map_put(&produced, "<text>", t.ptr, t.len);
            }
            applied[n_applied].result = single;
            applied[n_applied].names[0] = applied[n_applied].names[1] = NULL;
            n_applied++;
        } else {
            error = v4a_result_error(single);
        }
    } else {
        v4a_status s = v4a_patch_parse((const uint8_t *)patch.ptr, patch.len, &parsed);
        if (s == V4A_STATUS_OK) {
            v4a_ops ops = v4a_patch_ops(parsed);
            v4a_source *sources = (v4a_source *)xrealloc(NULL, sizeof(v4a_source) * ops.len);
            size_t k;
            for (k = 0; k < ops.len; k++) {
                const file_entry *f = map_get(&before, (const char *)ops.ptr[k].path.ptr);
                memset(&sources[k], 0, sizeof sources[k]);
                if (ops.ptr[k].kind != V4A_OP_ADD && f != NULL) {
                    sources[k].ptr = f->data;
                    sources[k].len = f->len;
                    sources[k].present = 1;
                }
            }
            s = v4a_patch_apply(parsed, sources, ops.len, &options, &set);
            free(sources);
            if (s == V4A_STATUS_OK) {
                v4a_file_results files = v4a_result_set_files(set);
                map_copy(&produced, &before);
                for (k = 0; k < files.len; k++) {
                    const v4a_file_result *f = &files.ptr[k];
                    const char *path = (const char *)f->path.ptr;
                    v4a_bytes t = v4a_result_text(f->result);
                    if (f->kind == V4A_OP_ADD) {
                        map_put(&produced, path, t.ptr, t.len);
                    } else if (f->kind == V4A_OP_DELETE) {
                        map_remove(&produced, path);
                    } else {
                        if (f->move_to.ptr != NULL) {
                            map_remove(&produced, path);
                            map_put(&produced, (const char *)f->move_to.ptr, t.ptr, t.len);
                        } else {
                            map_put(&produced, path, t.ptr, t.len);
                        }
                        if (n_applied < sizeof applied / sizeof applied[0]) {
                            applied[n_applied].result = f->result;
                            applied[n_applied].names[0] = path;
                            applied[n_applied].names[1] = (const char *)f->move_to.ptr;
                            n_applied++;
                        }
                    }
                }
            } else {
                error = v4a_result_set_error(set);
            }
        } else {
            error = v4a_patch_error(parsed);
        }
    }

    ok = error == NULL;
    if (has_error && ok) {
        size_t k;
        buf_printf(report, "  expected error %s, but the patch applied\n", error_spec.lines[0]);
        for (k = 0; k < produced.len; k++) {
            buf_printf(report, "    produced %s: ", produced.items[k].path);
            buf_show(report, produced.items[k].data, produced.items[k].len, 400);
            buf_add(report, "\n", 1);
        }
    } else if (has_error) {
        check_error(&error_spec, error, report);
    } else if (!ok) {
        buf_printf(report, "  expected success, got an error\n    status: %s\n    message: ",
                   v4a_status_str(error->status));
        buf_show(report, error->message.ptr, error->message.len, 800);
        buf_add(report, "\n", 1);
    } else {
        size_t k;
        if (mode != NULL) {
            /* Compare the text with the one file of after/ (none = empty), names ignored. */
            file_map want = {NULL, 0};
            if (after.len) {
                map_put(&want, "<text>", after.items[0].data, after.items[0].len);
            }
            if (want.len == 1 && want.items[0].len == 0) {
                map_remove(&want, "<text>");
            }
            compare_files(&want, &produced, report);
            map_free(&want);
        } else {
            compare_files(&after, &produced, report);
        }
        for (k = 0; k < expect_lines.len; k++) {
            check_expect(expect_lines.lines[k], applied, n_applied, report);
        }
    }

done:
    v4a_result_free(single);
    v4a_result_set_free(set);
    v4a_patch_free(parsed);
    map_free(&before);
    map_free(&after);
    map_free(&produced);
    lines_free(&error_spec);
    lines_free(&options_lines);
    lines_free(&expect_lines);
    free(mode);
    free(patch.ptr);
    free(p_patch);
    free(p_before);
    free(p_after);
    free(p_error);
    free(p_mode);
    free(p_options);
    free(p_expect);
}

int main(int argc, char **argv) {
    char **names;
    int n, i, passed = 0, failed = 0, ran = 0;
    buf failures = {NULL, 0, 0};
    const char *filter = argc > 2 ? argv[2] : getenv("V4A_VECTOR");
    if (argc < 2) {
        fprintf(stderr, "usage: %s VECTORS_DIR [NAME_SUBSTRING]\n", argv[0]);
        return 2;
    }
    if (v4a_abi_version() != V4A_ABI_VERSION) {
        fprintf(stderr, "test_vectors: the library's ABI %u is not the header's %u\n",
                (unsigned)v4a_abi_version(), (unsigned)V4A_ABI_VERSION);
        return 2;
    }
    n = list_dir(argv[1], &names);
    if (n < 0) {
        fprintf(stderr, "test_vectors: cannot read %s\n", argv[1]);
        return 2;
    }
    for (i = 0; i < n; i++) {
        char *dir = path_join(argv[1], names[i]);
        buf report = {NULL, 0, 0};
        if (!is_dir(dir) || (filter && filter[0] && strstr(names[i], filter) == NULL)) {
            free(dir);
            continue;
        }
        ran++;
        run_case(dir, &report);
        if (report.len == 0) {
            passed++;
        } else {
            failed++;
            buf_printf(&failures, "\n--- %s\n", names[i]);
            buf_add(&failures, report.ptr, report.len);
        }
        free(report.ptr);
        free(dir);
    }
    free_names(names, n);
    if (failures.len) {
        fputs(failures.ptr, stderr);
    }
    free(failures.ptr);
    if (!(filter && filter[0]) && ran < MIN_VECTORS) {
        fprintf(stderr, "test_vectors: %s holds %d cases; at least %d are required\n", argv[1],
                ran, MIN_VECTORS);
        failed++;
    }
    printf("test_vectors: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
