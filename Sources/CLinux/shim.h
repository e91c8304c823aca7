#ifndef STRATUS_CLINUX_SHIM_H
#define STRATUS_CLINUX_SHIM_H

// Linux calls that Swift's Glibc module does not show (they need _GNU_SOURCE), made through
// syscall(2) so that no feature macro has to reach the system headers.

#include <unistd.h>
#include <sys/syscall.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

// sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE): starts writing a range of a file's
// dirty pages to disk without waiting for it. Returns 0, or -1 with errno set.
// Elsewhere it does nothing and returns 0.
static inline int stratus_start_writeback(int descriptor, long long offset, long long length) {
#if defined(__linux__) && defined(SYS_sync_file_range)
    return (int)syscall(SYS_sync_file_range, descriptor, offset, length, 2 /* SYNC_FILE_RANGE_WRITE */);
#else
    (void)descriptor; (void)offset; (void)length;
    return 0;
#endif
}

// prctl(PR_SET_NAME): names the calling thread (Linux keeps the first 15 bytes), as `ps` and
// /proc/self/task/*/comm show it. Returns 0, or -1 with errno set. Elsewhere it does nothing.
static inline int stratus_name_this_thread(const char *name) {
#if defined(__linux__)
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
#else
    (void)name;
    return 0;
#endif
}

#endif
