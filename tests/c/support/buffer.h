/*
 * Growable byte buffers for the C tests (support library, tests/c/support/): always
 * NUL-terminated once written to. An out-of-memory condition ends the test (exit 2).
 */
#ifndef V4A_TEST_BUFFER_H
#define V4A_TEST_BUFFER_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *ptr;
    size_t len;
    size_t cap;
} buf;

/* realloc that never returns NULL (and never frees for n == 0). */
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

void buf_add(buf *b, const void *data, size_t n);
void buf_str(buf *b, const char *s);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void buf_printf(buf *b, const char *fmt, ...);

/* Bytes shown as a quoted string with escapes, at most `max` bytes. */
void buf_show(buf *b, const uint8_t *p, size_t n, size_t max);

/* Bytes escaped as in a vector's `outcome` file: \\ \n \r \t, \xHH for the other control
 * characters (below 0x20, and 0x7F); every other byte as is. */
void buf_escape(buf *b, const uint8_t *p, size_t n);

#endif /* V4A_TEST_BUFFER_H */
