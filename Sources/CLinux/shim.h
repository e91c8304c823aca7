#ifndef STRATUS_CLINUX_SHIM_H
#define STRATUS_CLINUX_SHIM_H

// Linux calls that Swift's Glibc module does not show (they need _GNU_SOURCE), made through
// syscall(2), or for glibc's own functions declared here, so that no feature macro has to reach
// the system headers.

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include <sys/syscall.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#if defined(__linux__) && defined(__GLIBC__)
// glibc (2.34 and later for the first) declares these two only under _GNU_SOURCE, which Swift's
// Glibc module is built without; the declarations are glibc's own.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int lowest);
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
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

// pipe2(descriptors, O_CLOEXEC): a pipe whose two ends no other child inherits, even one spawned
// by another thread between the pipe's creation and a later fcntl. Returns 0, or -1 with errno set.
static inline int stratus_pipe_cloexec(int descriptors[2]) {
#if defined(__linux__) && defined(SYS_pipe2)
    return (int)syscall(SYS_pipe2, descriptors, O_CLOEXEC);
#else
    if (pipe(descriptors) != 0) return -1;
    fcntl(descriptors[0], F_SETFD, FD_CLOEXEC);
    fcntl(descriptors[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

// posix_spawn_file_actions_addclosefrom_np: the child closes every descriptor from `lowest` up
// (glibc uses close_range(2), no walk of /proc/self/fd). Returns 0 or an errno value; ENOSYS
// where the C library has no such action.
static inline int stratus_spawn_add_close_from(posix_spawn_file_actions_t *actions, int lowest) {
#if defined(__linux__) && defined(__GLIBC__)
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    (void)actions; (void)lowest;
    return ENOSYS;
#endif
}

// posix_spawn_file_actions_addchdir_np: the child changes to `path` before it runs the program.
// Returns 0 or an errno value; ENOSYS where the C library has no such action.
static inline int stratus_spawn_add_change_directory(posix_spawn_file_actions_t *actions, const char *path) {
#if defined(__linux__) && defined(__GLIBC__)
    return posix_spawn_file_actions_addchdir_np(actions, path);
#else
    (void)actions; (void)path;
    return ENOSYS;
#endif
}

#endif
