#define _GNU_SOURCE
#include "ProcessGroupGuard.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// The most groups alive at once that the guard keeps; adopting more fails with ENOSPC.
#define GUARD_CAPACITY 4096

static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;
static int guard_write_end = -1;
static pid_t guard_process = 0;
static int guard_count = 0;  // groups adopted and not released, as this process counts them
static int exit_wait_registered = 0;

static void close_descriptors_from(int first) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, first, ~0U, 0) == 0) return;
#endif
    for (int descriptor = first; descriptor < 65536; descriptor++) close(descriptor);
}

/// The guard's life, in the grandchild: only async-signal-safe calls, no allocation.
static void guard_main(int input) __attribute__((noreturn));
static void guard_main(int input) {
    static pid_t groups[GUARD_CAPACITY];
    int count = 0;
    setsid();
    int ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2};
    for (unsigned index = 0; index < sizeof ignored / sizeof ignored[0]; index++) signal(ignored[index], SIG_IGN);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (dup2(input, 0) < 0) _exit(1);
    close_descriptors_from(1);
    int devnull = open("/dev/null", O_RDWR);  // 1: nothing the guard does writes, but 1 and 2 exist
    if (devnull >= 0 && devnull != 1) dup2(devnull, 1);
    dup2(1, 2);
    unsigned char buffer[sizeof(int32_t) * 256];
    size_t filled = 0;
    for (;;) {
        ssize_t count_read = read(0, buffer + filled, sizeof buffer - filled);
        if (count_read < 0 && errno == EINTR) continue;
        if (count_read <= 0) break;
        filled += (size_t)count_read;
        size_t offset = 0;
        while (filled - offset >= sizeof(int32_t)) {
            int32_t message;
            memcpy(&message, buffer + offset, sizeof message);
            offset += sizeof message;
            if (message > 0) {
                if (count < GUARD_CAPACITY) groups[count++] = message;
            } else if (message < 0) {
                for (int index = 0; index < count; index++) {
                    if (groups[index] == -message) {
                        groups[index] = groups[--count];
                        break;
                    }
                }
            }
        }
        memmove(buffer, buffer + offset, filled - offset);
        filled -= offset;
    }
    for (int index = 0; index < count; index++) kill(-groups[index], SIGKILL);
    _exit(0);
}

/// At exit: closes this end and waits (up to 2 s) until the guard has ended the groups and
/// exited, so that nothing of this process is left when it returns.
static void guard_stop_at_exit(void) {
    pthread_mutex_lock(&guard_lock);
    int descriptor = guard_write_end;
    pid_t guard = guard_process;
    guard_write_end = -1;
    pthread_mutex_unlock(&guard_lock);
    if (descriptor < 0) return;
#ifdef SYS_pidfd_open
    int watch = (int)syscall(SYS_pidfd_open, guard, 0);
#else
    int watch = -1;
#endif
    close(descriptor);
    if (watch < 0) return;
    struct pollfd ready = {.fd = watch, .events = POLLIN, .revents = 0};
    while (poll(&ready, 1, 2000) < 0 && errno == EINTR) {}
    close(watch);
}

void process_group_guard_wait_at_exit(void) {
    pthread_mutex_lock(&guard_lock);
    int first = !exit_wait_registered;
    exit_wait_registered = 1;
    pthread_mutex_unlock(&guard_lock);
    if (first) atexit(guard_stop_at_exit);
}

int process_group_guard_start(void) {
    pthread_mutex_lock(&guard_lock);
    if (guard_write_end >= 0) {
        pthread_mutex_unlock(&guard_lock);
        return 0;
    }
    // A socket pair rather than a pipe: a send to a guard that is gone fails with EPIPE
    // (MSG_NOSIGNAL) instead of raising SIGPIPE in this process.
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
        int saved = errno;
        pthread_mutex_unlock(&guard_lock);
        errno = saved;
        return -1;
    }
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        int saved = errno;
        close(ends[0]);
        close(ends[1]);
        pthread_mutex_unlock(&guard_lock);
        errno = saved;
        return -1;
    }
    pid_t middle = fork();
    if (middle == 0) {
        // Only async-signal-safe calls from here on: this process has other threads.
        pid_t guard = fork();
        if (guard == 0) {
            close(ends[1]);
            close(report[0]);
            close(report[1]);
            guard_main(ends[0]);
        }
        ssize_t written = write(report[1], &guard, sizeof guard);
        (void)written;
        _exit(guard > 0 ? 0 : 1);
    }
    int saved = errno;
    close(ends[0]);
    close(report[1]);
    if (middle < 0) {
        close(ends[1]);
        close(report[0]);
        pthread_mutex_unlock(&guard_lock);
        errno = saved;
        return -1;
    }
    pid_t guard = 0;
    ssize_t count;
    do {
        count = read(report[0], &guard, sizeof guard);
    } while (count < 0 && errno == EINTR);
    close(report[0]);
    int status;
    while (waitpid(middle, &status, 0) < 0 && errno == EINTR) {}
    if (count != sizeof guard || guard <= 0) {
        close(ends[1]);
        pthread_mutex_unlock(&guard_lock);
        errno = ECHILD;
        return -1;
    }
    guard_write_end = ends[1];
    guard_process = guard;
    pthread_mutex_unlock(&guard_lock);
    process_group_guard_wait_at_exit();
    return 0;
}

static int guard_send(int32_t message) {
    pthread_mutex_lock(&guard_lock);
    if (guard_write_end < 0) {
        pthread_mutex_unlock(&guard_lock);
        errno = ESRCH;
        return -1;
    }
    if (message > 0 && guard_count >= GUARD_CAPACITY) {
        pthread_mutex_unlock(&guard_lock);
        errno = ENOSPC;
        return -1;
    }
    ssize_t written;
    do {
        written = send(guard_write_end, &message, sizeof message, MSG_NOSIGNAL);
    } while (written < 0 && errno == EINTR);
    int saved = errno;
    if (written == sizeof message) guard_count += message > 0 ? 1 : -1;
    pthread_mutex_unlock(&guard_lock);
    errno = saved;
    return written == sizeof message ? 0 : -1;
}

int process_group_guard_adopt(pid_t group) {
    if (group <= 0) {
        errno = EINVAL;
        return -1;
    }
    return guard_send((int32_t)group);
}

int process_group_guard_release(pid_t group) {
    if (group <= 0) {
        errno = EINVAL;
        return -1;
    }
    return guard_send(-(int32_t)group);
}
