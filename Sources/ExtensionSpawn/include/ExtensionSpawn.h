#ifndef EXTENSION_SPAWN_H
#define EXTENSION_SPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (NULL-terminated) in a process group of its own, its
/// standard input, output and error on the given descriptors, and asks the kernel to send it
/// SIGKILL when the calling thread ends (PR_SET_PDEATHSIG), so that it never outlives the
/// engine, even one killed with SIGKILL.
///
/// Returns the child's pid, or -1 with `*error_number` set when fork or exec failed (the exec
/// error is read back through a close-on-exec pipe).
pid_t extension_spawn(const char *path, char *const argv[], char *const envp[], int input, int output, int error,
                      int *error_number);

/// Makes a pipe whose two ends are closed on exec; returns 0, or -1 with errno set.
int extension_pipe(int ends[2]);

#endif
