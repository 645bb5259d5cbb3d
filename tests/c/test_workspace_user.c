/*
 * Read-only refusals through the C ABI as a non-root user (SPEC 5.2, issue 16): the test,
 * run as root, makes a tree owned by the unprivileged user `nobody`, then a child process
 * drops to that user (setgroups, setgid, setuid) and applies through v4a_workspace_apply:
 *
 * - an Update of a file of mode 0444 is V4A_STATUS_IO_ERROR with V4A_FAILURE_READ_ONLY, and
 *   the message names the file and its mode;
 * - an Update of a writable file in a directory of mode 0555 is V4A_STATUS_IO_ERROR with
 *   V4A_FAILURE_IO, and the message names the real cause (no temporary file can be created
 *   in that directory), not the file;
 * - a patch touching both, and a Delete of the read-only file, change nothing either;
 *
 * and after each, every file is byte for byte what it was, with no journal, lock or temporary
 * file left. Not root: it prints why and exits 77 (CTest's skip code).
 *
 * Usage: test_workspace_user   (makes and removes its own temporary directory)
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "support/files.h"

/* The user and group the child runs as (Debian's nobody / nogroup). */
#define USER_ID 65534
#define GROUP_ID 65534

static void put(const char *top, const char *rel, const char *text, mode_t mode) {
    char *p = path_join(top, rel);
    FILE *f = fopen(p, "wb");
    CHECK(f != NULL);
    if (f != NULL) {
        fwrite(text, 1, strlen(text), f);
        fclose(f);
    }
    CHECK(chown(p, USER_ID, GROUP_ID) == 0);
    CHECK(chmod(p, mode) == 0);
    free(p);
}

static void dir_at(const char *top, const char *rel, mode_t mode) {
    char *p = path_join(top, rel);
    CHECK(mkdir(p, 0755) == 0);
    CHECK(chown(p, USER_ID, GROUP_ID) == 0);
    CHECK(chmod(p, mode) == 0);
    free(p);
}

/* The tree under root is exactly `before`, and nothing of v4a's own is left in it. */
static void check_unchanged(const char *root, const file_map *before, const char *what) {
    file_map now = {0};
    buf report = {0};
    size_t i;
    CHECK(read_tree(root, "", &now));
    compare_files(before, &now, "", &report);
    if (report.len > 0) {
        fprintf(stderr, "%s changed files:\n%s", what, report.ptr);
    }
    CHECK(report.len == 0);
    for (i = 0; i < now.len; i++) {
        CHECK(strstr(now.items[i].path, ".v4a") == NULL);
    }
    free(report.ptr);
    map_free(&now);
}

/* Applies `text` to root (in the child, as the user); checks the status, the failure kind and
 * that the message contains `needle`. */
static void refused(const char *root, const char *text, v4a_failure failure,
                    const char *needle) {
    v4a_patch *patch = NULL;
    v4a_workspace_result *r = NULL;
    v4a_status s;
    CHECK_STATUS(v4a_patch_parse((const uint8_t *)text, strlen(text), &patch), V4A_STATUS_OK);
    s = v4a_workspace_apply((const uint8_t *)root, strlen(root), patch, NULL, 0, NULL, &r);
    CHECK_STATUS(s, V4A_STATUS_IO_ERROR);
    CHECK(r != NULL);
    if (r != NULL) {
        const v4a_error *e = v4a_workspace_result_error(r);
        CHECK(v4a_workspace_result_failure(r) == failure);
        CHECK(v4a_workspace_result_written(r) == 0);
        CHECK(v4a_workspace_result_needs_recovery(r) == 0);
        CHECK(e != NULL);
        if (e != NULL) {
            if (!view_contains(e->message, needle)) {
                fprintf(stderr, "  message %.*s lacks \"%s\"\n", (int)e->message.len,
                        (const char *)e->message.ptr, needle);
            }
            CHECK_CONTAINS(e->message, needle);
        }
    }
    v4a_workspace_result_free(r);
    v4a_patch_free(patch);
}

/* The child: drops to the user, tries every refused patch; exits 0 when all checks passed. */
static int as_user(const char *root) {
    if (setgroups(0, NULL) != 0 || setgid(GROUP_ID) != 0 || setuid(USER_ID) != 0) {
        fprintf(stderr, "dropping to uid %d failed: %s\n", USER_ID, strerror(errno));
        return 2;
    }
    CHECK(geteuid() == USER_ID && getegid() == GROUP_ID);
    /* Really unprivileged: root could write the 0444 file. */
    CHECK(access(root, W_OK) == 0);
    {
        char *p = path_join(root, "ro.txt");
        CHECK(access(p, W_OK) != 0);
        free(p);
    }
    refused(root, "*** Begin Patch\n*** Update File: ro.txt\n@@\n-ro\n+RO\n*** End Patch\n",
            V4A_FAILURE_READ_ONLY, "ro.txt (patch line 2) is read-only (mode 0444)");
    refused(root, "*** Begin Patch\n*** Delete File: ro.txt\n*** End Patch\n",
            V4A_FAILURE_READ_ONLY, "is read-only (mode 0444)");
    refused(root, "*** Begin Patch\n*** Update File: rodir/f.txt\n@@\n-f\n+F\n*** End Patch\n",
            V4A_FAILURE_IO,
            "cannot create a temporary file in the directory rodir for rodir/f.txt: "
            "Permission denied");
    refused(root,
            "*** Begin Patch\n*** Update File: free.txt\n@@\n-w\n+W\n"
            "*** Add File: rodir/new.txt\n+new\n*** End Patch\n",
            V4A_FAILURE_IO, "rodir");
    return check_report("test_workspace_user (as the user)");
}

int main(void) {
    char tmpl[] = "/tmp/v4a-c-user-XXXXXX";
    char *root;
    file_map before = {0};
    pid_t pid;
    int status = 0;
    if (geteuid() != 0) {
        printf("test_workspace_user: skipped: it needs root (to make files owned by uid %d and "
               "drop to it)\n",
               USER_ID);
        return 77;
    }
    if (mkdtemp(tmpl) == NULL) {
        fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
        return 2;
    }
    CHECK(chmod(tmpl, 0755) == 0);
    root = path_join(tmpl, "root");
    dir_at(tmpl, "root", 0755);
    put(root, "ro.txt", "ro\n", 0444);
    put(root, "free.txt", "w\n", 0644);
    dir_at(root, "rodir", 0755);
    put(root, "rodir/f.txt", "f\n", 0644);
    {
        char *d = path_join(root, "rodir");
        CHECK(chmod(d, 0555) == 0);
        free(d);
    }
    CHECK(read_tree(root, "", &before));
    CHECK(before.len == 3);
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        int rc = as_user(root);
        fflush(NULL);
        _exit(rc);
    }
    CHECK(pid > 0);
    if (pid > 0) {
        CHECK(waitpid(pid, &status, 0) == pid);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    check_unchanged(root, &before, "the refused applies");
    map_free(&before);
    remove_tree(tmpl);
    free(root);
    return check_report("test_workspace_user");
}
