#if canImport(Glibc)
    import Dispatch
    import Glibc

    /// One inotify instance, read on a dispatch queue: watches are added by path, and the
    /// events read are handed over parsed, a batch per read.
    ///
    /// ```swift
    /// let inotify = Inotify(queue: queue) { events in for event in events { print(event.name ?? "", event.mask) } }
    /// _ = inotify?.addWatch(path: "/srv/inbox", mask: UInt32(IN_CLOSE_WRITE))
    /// ```
    final class Inotify {
        /// One `inotify_event`: a 16-byte header (wd, mask, cookie, len), then `len` bytes of
        /// NUL-padded file name.
        struct Event {
            var watch: Int32
            var mask: UInt32
            /// The name of the file in the watched folder, or `nil` for an event of the folder itself.
            var name: String?

            func has(_ flag: Int32) -> Bool { mask & UInt32(flag) != 0 }
        }

        private let descriptor: Int32
        private let source: any DispatchSourceRead

        /// Creates the instance and starts reading it; `nil` when the system refuses one
        /// (`fs.inotify.max_user_instances`).
        init?(queue: DispatchQueue, handler: @escaping ([Event]) -> Void) {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            self.descriptor = descriptor
            source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { handler(Self.read(descriptor)) }
            source.setCancelHandler { close(descriptor) }
            source.resume()
        }

        /// Watches a path (replacing the mask of a watch of the same file).
        ///
        /// - Returns: The watch descriptor, or the `errno` of the failure (`ENOENT` for a missing path).
        func addWatch(path: String, mask: UInt32) -> Result<Int32, Errno> {
            let watch = inotify_add_watch(descriptor, path, mask)
            return watch >= 0 ? .success(watch) : .failure(Errno(code: errno))
        }

        func removeWatch(_ watch: Int32) {
            _ = inotify_rm_watch(descriptor, watch)
        }

        /// The events the kernel holds that are not read yet, read now: called on the queue, it
        /// leaves nothing written before the call unread.
        func readPending() -> [Event] {
            Self.read(descriptor)
        }

        /// Stops reading and closes the descriptor.
        func cancel() {
            source.cancel()
        }

        /// An `errno` value, as an error.
        struct Errno: Error, CustomStringConvertible {
            var code: Int32
            var description: String { String(cString: strerror(code)) }
        }

        private static func read(_ descriptor: Int32) -> [Event] {
            var events: [Event] = []
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                var offset = 0
                while offset + 16 <= count {
                    let watch = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int32.self) }
                    let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                    let length = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
                    let nameBytes = buffer[(offset + 16)..<min(offset + 16 + length, count)].prefix { $0 != 0 }
                    offset += 16 + length
                    events.append(Event(watch: watch, mask: mask, name: nameBytes.isEmpty ? nil : String(decoding: nameBytes, as: UTF8.self)))
                }
            }
            return events
        }
    }
#endif
