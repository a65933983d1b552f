#define _GNU_SOURCE
#include "ExtensionSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void close_descriptors_from(int first) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, first, ~0U, 0) == 0) return;
#endif
    for (int descriptor = first; descriptor < 4096; descriptor++) close(descriptor);
}

pid_t extension_spawn(const char *path, char *const argv[], char *const envp[], int input, int output, int error,
                      int *error_number) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        *error_number = errno;
        return -1;
    }
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) {
        *error_number = errno;
        close(report[0]);
        close(report[1]);
        return -1;
    }
    if (child == 0) {
        // Only async-signal-safe calls from here to execve.
        int failure = 0;
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(127);
        setpgid(0, 0);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        for (int number = 1; number < NSIG; number++) {
            if (number != SIGKILL && number != SIGSTOP) signal(number, SIG_DFL);
        }
        if (dup2(input, 0) < 0 || dup2(output, 1) < 0 || dup2(error, 2) < 0) {
            failure = errno;
        } else {
            int keep = report[1];
            if (keep != 3) {
                if (dup2(keep, 3) < 0) failure = errno;
                keep = 3;
            }
            if (failure == 0) {
                fcntl(keep, F_SETFD, FD_CLOEXEC);
                close_descriptors_from(4);
                execve(path, argv, envp);
                failure = errno;
                report[1] = keep;
            }
        }
        ssize_t written = write(report[1], &failure, sizeof failure);
        (void)written;
        _exit(127);
    }
    // Also here, so that the group exists before the parent signals it.
    setpgid(child, child);
    close(report[1]);
    int failure = 0;
    ssize_t count;
    do {
        count = read(report[0], &failure, sizeof failure);
    } while (count < 0 && errno == EINTR);
    close(report[0]);
    if (count == sizeof failure) {
        *error_number = failure;
        int status;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
        return -1;
    }
    return child;
}

int extension_pipe(int ends[2]) { return pipe2(ends, O_CLOEXEC); }
