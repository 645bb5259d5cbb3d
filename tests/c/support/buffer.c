/* Growable byte buffers for the C tests (buffer.h). */
#include "buffer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (q == NULL) {
        fprintf(stderr, "out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return q;
}

char *xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = (char *)xrealloc(NULL, n);
    memcpy(p, s, n);
    return p;
}

void buf_add(buf *b, const void *data, size_t n) {
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

void buf_str(buf *b, const char *s) {
    buf_add(b, s, strlen(s));
}

void buf_printf(buf *b, const char *fmt, ...) {
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

void buf_escape(buf *b, const uint8_t *p, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (c == '\\') {
            buf_add(b, "\\\\", 2);
        } else if (c == '\n') {
            buf_add(b, "\\n", 2);
        } else if (c == '\r') {
            buf_add(b, "\\r", 2);
        } else if (c == '\t') {
            buf_add(b, "\\t", 2);
        } else if (c < 0x20 || c == 0x7F) {
            buf_printf(b, "\\x%02x", c);
        } else {
            buf_add(b, &c, 1);
        }
    }
}

void buf_show(buf *b, const uint8_t *p, size_t n, size_t max) {
    size_t i;
    buf_add(b, "\"", 1);
    for (i = 0; i < n && i < max; i++) {
        uint8_t c = p[i];
        if (c == '"') {
            buf_add(b, "\\\"", 2);
        } else if (c >= 0x80) {
            buf_printf(b, "\\x%02x", c);
        } else {
            buf_escape(b, &c, 1);
        }
    }
    buf_add(b, "\"", 1);
    if (n > max) {
        buf_printf(b, "... (%zu bytes)", n);
    }
}
