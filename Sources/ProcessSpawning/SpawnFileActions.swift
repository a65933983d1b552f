#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a program started with `posix_spawn` gets beside its arguments: its standard
/// descriptors and nothing else, its folder, and its own process group with default signals;
/// and the lookups and pipes that starting it needs.
///
/// A process has descriptors that other threads opened without close-on-exec (a library's
/// socket pair, a file being written): a child that inherits one keeps it open as long as it
/// runs, so whoever waits for that descriptor to close waits for the child too. Closing every
/// descriptor from 3 up in the child rules that out.
///
/// ```swift
/// var actions = posix_spawn_file_actions_t()
/// posix_spawn_file_actions_init(&actions)
/// defer { posix_spawn_file_actions_destroy(&actions) }
/// posix_spawn_file_actions_adddup2(&actions, output, 1)
/// SpawnSetup.closeInheritedDescriptors(&actions)
/// ```
public enum SpawnSetup {
    /// Makes the child close every descriptor from `first` (3) up, after the actions added before.
    ///
    /// With `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34) the child closes them all;
    /// without it, every descriptor open now is listed (one opened meanwhile may then stay).
    public static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t, from first: Int32 = 3) {
        if let closeFrom = C.addCloseFrom, closeFrom(&actions, first) == 0 { return }
        for descriptor in openDescriptors() where descriptor >= first {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }

    /// Makes the child's standard input the file at `input`, and its standard output and error
    /// the files at `output` and `error`, created or emptied, readable by the owner alone.
    public static func standardFiles(_ actions: inout posix_spawn_file_actions_t, input: String, output: String, error: String) {
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }

    /// Makes the child start in `folder`.
    ///
    /// - Returns: `false` when the C library cannot (it lacks `posix_spawn_file_actions_addchdir_np`).
    public static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, to folder: String) -> Bool {
        guard let addChangeDirectory = C.addChangeDirectory else { return false }
        return addChangeDirectory(&actions, folder) == 0
    }

    /// Starts the child as the leader of a new process group, with no signal blocked and the
    /// given signals back to their default actions (a parent that ignores or handles them must
    /// not pass that on).
    public static func newProcessGroup(_ attributes: inout posix_spawnattr_t, defaultSignals signals: [Int32]) {
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in signals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
    }

    /// The path of an executable named without a slash, looked up in a `PATH` value.
    ///
    /// ```swift
    /// SpawnSetup.lookUp("ls", in: "/usr/bin:/bin")   // "/usr/bin/ls"
    /// ```
    ///
    /// - Parameters:
    ///   - name: A name such as `ls`; a name with a slash is returned as it is.
    ///   - path: The `PATH` value (`/usr/local/bin:/usr/bin:/bin` when `nil`).
    /// - Returns: The first executable regular file found, or `nil`.
    public static func lookUp(_ name: String, in path: String?) -> String? {
        if name.contains("/") { return name }
        for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// A pipe whose ends are closed on `exec` (a child gets copies through `dup2`), made with
    /// `pipe2(O_CLOEXEC)` so that no program started meanwhile on another thread inherits it.
    ///
    /// - Returns: The read and write ends, or `nil` with `errno` set.
    public static func closeOnExecPipe() -> (read: Int32, write: Int32)? {
        var descriptors: [Int32] = [-1, -1]
        let result = descriptors.withUnsafeMutableBufferPointer { C.pipe2($0.baseAddress!, O_CLOEXEC) }
        return result == 0 ? (descriptors[0], descriptors[1]) : nil
    }

    /// `pidfd_open(2)`: a descriptor that becomes readable when the process exits; -1 where
    /// the C library or the kernel lacks it.
    public static func openProcessDescriptor(_ pid: pid_t) -> Int32 {
        guard let open = C.openProcessDescriptor else { return -1 }
        return open(pid, 0)
    }

    /// Runs `body` with `SIGPIPE` held back on this thread, so that a write to a pipe or a
    /// socket whose reader has gone fails with `EPIPE` instead of ending the process; the
    /// `SIGPIPE` such a write raised is taken before the mask is restored, so it is never
    /// delivered later.
    ///
    /// ```swift
    /// let written = SpawnSetup.withoutPipeSignal { write(descriptor, bytes, count) }
    /// ```
    public static func withoutPipeSignal<Result>(_ body: () throws -> Result) rethrows -> Result {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 && sigismember(&previous, SIGPIPE) == 0 {
                var timeout = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&blocked, nil, &timeout)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return try body()
    }

    /// `memfd_create(2)` with close-on-exec: an anonymous file in memory, which a child given
    /// its descriptor reads as `/dev/fd/N`; -1 where the C library or the kernel lacks it.
    ///
    /// - Parameter name: The name shown in `/proc/PID/fd` (not a path).
    public static func memoryFile(named name: String) -> Int32 {
        guard let create = C.createMemoryFile else { return -1 }
        return create(name, 1)  // MFD_CLOEXEC
    }

    /// The descriptors open in this process, from `/proc/self/fd`.
    static func openDescriptors() -> [Int32] {
        guard let folder = opendir("/proc/self/fd") else { return [] }
        defer { closedir(folder) }
        var descriptors: [Int32] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let descriptor = Int32(name), descriptor != dirfd(folder) { descriptors.append(descriptor) }
        }
        return descriptors
    }

    /// The GNU C library's functions that its Swift module leaves out (they need `_GNU_SOURCE`).
    private enum C {
        typealias Actions = UnsafeMutablePointer<posix_spawn_file_actions_t>
        static let addCloseFrom = function(
            "posix_spawn_file_actions_addclosefrom_np", as: (@convention(c) (Actions, Int32) -> Int32).self)
        static let addChangeDirectory = function(
            "posix_spawn_file_actions_addchdir_np", as: (@convention(c) (Actions, UnsafePointer<CChar>) -> Int32).self)
        static let pipe2 = function("pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)!
        static let openProcessDescriptor = function("pidfd_open", as: (@convention(c) (pid_t, UInt32) -> Int32).self)
        static let createMemoryFile = function("memfd_create", as: (@convention(c) (UnsafePointer<CChar>, UInt32) -> Int32).self)

        static func function<Function>(_ name: String, as type: Function.Type) -> Function? {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
            return unsafeBitCast(symbol, to: type)
        }
    }
}
