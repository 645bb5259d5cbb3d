/* Files, directories and trees of files for the C tests (files.h). */
#define _POSIX_C_SOURCE 200809L

#include "files.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *path_join(const char *a, const char *b) {
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = (char *)xrealloc(NULL, n);
    snprintf(p, n, "%s/%s", a, b);
    return p;
}

int exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

int is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int read_file(const char *path, buf *out) {
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

int list_dir(const char *dir, char ***names_out) {
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
    if (n) {
        qsort(names, (size_t)n, sizeof(char *), cmp_str);
    }
    *names_out = names;
    return n;
}

void free_names(char **names, int n) {
    int i;
    for (i = 0; i < n; i++) {
        free(names[i]);
    }
    free(names);
}

/* Removes a tree (no links followed; directories made writable first). */
void remove_tree(const char *path) {
    struct stat st;
    char **names = NULL;
    int n, i;
    if (lstat(path, &st) != 0) {
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        chmod(path, 0755);
        n = list_dir(path, &names);
        for (i = 0; i < n; i++) {
            char *c = path_join(path, names[i]);
            remove_tree(c);
            free(c);
        }
        if (n >= 0) {
            free_names(names, n);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

file_entry *map_get(const file_map *m, const char *path) {
    size_t i;
    for (i = 0; i < m->len; i++) {
        if (strcmp(m->items[i].path, path) == 0) {
            return &m->items[i];
        }
    }
    return NULL;
}

void map_remove(file_map *m, const char *path) {
    file_entry *e = map_get(m, path);
    if (e != NULL) {
        size_t i = (size_t)(e - m->items);
        free(e->path);
        free(e->data);
        memmove(&m->items[i], &m->items[i + 1], (m->len - i - 1) * sizeof(file_entry));
        m->len--;
    }
}

void map_put(file_map *m, const char *path, const uint8_t *data, size_t len) {
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

void map_copy(file_map *dst, const file_map *src) {
    size_t i;
    for (i = 0; i < src->len; i++) {
        map_put(dst, src->items[i].path, src->items[i].data, src->items[i].len);
    }
}

void map_free(file_map *m) {
    size_t i;
    for (i = 0; i < m->len; i++) {
        free(m->items[i].path);
        free(m->items[i].data);
    }
    free(m->items);
    m->items = NULL;
    m->len = 0;
}

int read_tree(const char *root, const char *prefix, file_map *out) {
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

void compare_files(const file_map *want, const file_map *got, const char *where, buf *report) {
    size_t i;
    for (i = 0; i < want->len; i++) {
        const file_entry *g = map_get(got, want->items[i].path);
        const file_entry *w = &want->items[i];
        if (g == NULL) {
            buf_printf(report, "  %s: expected in %s, missing from the result\n", w->path, where);
        } else if (g->len != w->len || (w->len && memcmp(g->data, w->data, w->len) != 0)) {
            buf_printf(report, "  %s differs from %s\n    expected: ", w->path, where);
            buf_show(report, w->data, w->len, 800);
            buf_printf(report, "\n    actual:   ");
            buf_show(report, g->data, g->len, 800);
            buf_add(report, "\n", 1);
        }
    }
    for (i = 0; i < got->len; i++) {
        if (map_get(want, got->items[i].path) == NULL) {
            buf_printf(report, "  %s: present in the result, not in %s: ", got->items[i].path,
                       where);
            buf_show(report, got->items[i].data, got->items[i].len, 400);
            buf_add(report, "\n", 1);
        }
    }
}
