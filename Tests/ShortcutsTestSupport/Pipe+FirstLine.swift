import Foundation
import Synchronization

extension Pipe {
    /// The first line a program writes to this pipe, such as the address a daemon prints when
    /// it is ready.
    ///
    /// ```swift
    /// let address = output.firstLine(timeout: 5)   // "unix:path=/tmp/dbus-…"
    /// ```
    ///
    /// - Parameter timeout: The longest wait, in seconds.
    /// - Returns: The line without its newline, or `nil` when none came in time or the pipe closed first.
    func firstLine(timeout: Int) -> String? {
        let printed = Mutex(Data())
        let line = DispatchSemaphore(value: 0)
        fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            let done = printed.withLock { data in
                data += chunk
                return chunk.isEmpty || data.contains(UInt8(ascii: "\n"))
            }
            if done {
                handle.readabilityHandler = nil
                line.signal()
            }
        }
        guard line.wait(timeout: .now() + .seconds(timeout)) == .success else {
            fileHandleForReading.readabilityHandler = nil
            return nil
        }
        let text = printed.withLock { String(decoding: $0, as: UTF8.self) }
        guard let end = text.firstIndex(of: "\n") else { return nil }
        return String(text[..<end])
    }
}
