/*
 * Files, directories and trees of files for the C tests (support library, tests/c/support/).
 */
#ifndef V4A_TEST_FILES_H
#define V4A_TEST_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "buffer.h"

char *path_join(const char *a, const char *b);
int exists(const char *path);
int is_dir(const char *path);

/* Reads a whole file into `out` (NUL-terminated); returns 0 when it cannot be read. */
int read_file(const char *path, buf *out);

/* The sorted entry names of a directory (without . and ..); returns the count, -1 when it
 * cannot be read. Free them with free_names. */
int list_dir(const char *dir, char ***names_out);
void free_names(char **names, int n);

/* Removes a tree (no links followed; directories made writable first). */
void remove_tree(const char *path);

/* A map from relative path to bytes, kept sorted by path (byte order, like a BTreeMap). */
typedef struct {
    char *path;
    uint8_t *data;
    size_t len;
} file_entry;

typedef struct {
    file_entry *items;
    size_t len;
} file_map;

file_entry *map_get(const file_map *m, const char *path);
void map_remove(file_map *m, const char *path);
/* Inserts or replaces `path` with a copy of the bytes. */
void map_put(file_map *m, const char *path, const uint8_t *data, size_t len);
void map_copy(file_map *dst, const file_map *src);
void map_free(file_map *m);

/* Every file under `root`, keyed by its path relative to `root` with '/' separators (prefix
 * "" at the top); returns 0 when a part cannot be read. */
int read_tree(const char *root, const char *prefix, file_map *out);

/* Compares the produced files with the wanted ones (`where`: "after/", ...), byte for byte;
 * each difference is a "  ...\n" line of the report. */
void compare_files(const file_map *want, const file_map *got, const char *where, buf *report);

#endif /* V4A_TEST_FILES_H */
