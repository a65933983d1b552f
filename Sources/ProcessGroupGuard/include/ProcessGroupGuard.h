#ifndef PROCESS_GROUP_GUARD_H
#define PROCESS_GROUP_GUARD_H

#include <sys/types.h>

/// Starts the guard: a small process of its own (forked twice, in a session of its own,
/// ignoring the signals a terminal or a service manager sends) that holds one end of a socket
/// pair whose other end only this process holds, close-on-exec. When this process ends in any
/// way, SIGKILL included, the socket reaches its end and the guard sends SIGKILL to every process
/// group it was told of and not told to forget, then exits.
///
/// At a normal exit (`exit`, `main` returning) this process ends its side and waits up to 2 s
/// for the guard to finish, so nothing of it is left when it returns (see
/// `process_group_guard_wait_at_exit`).
///
/// Returns 0, or -1 with errno set. Calling it again after a success does nothing.
int process_group_guard_start(void);

/// Registers the wait at exit now, if it is not yet: exit handlers run in the reverse order of
/// their registration, so a program that calls this first, before others register theirs (an
/// extension host that stops its extensions gently), has the guard end what is left last.
void process_group_guard_wait_at_exit(void);

/// Tells the guard of a process group to end with this process; 0, or -1 with errno set.
int process_group_guard_adopt(pid_t group);

/// Tells the guard to forget a process group (its leader ended and it was ended itself).
int process_group_guard_release(pid_t group);

#endif
