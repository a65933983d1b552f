import Foundation
import Glibc

/// Reads a descriptor to its end, one line at a time.
enum LineReader {
    /// Calls `line` with each line (without its `\n`; a last line without one included), or
    /// with `nil` for a line longer than `limit`, whose bytes are skipped up to its end.
    ///
    /// - Returns: `nil` at the end of the file, or the `errno` of a read that failed.
    @discardableResult
    static func read(descriptor: Int32, limit: Int, line: (Data?) -> Void) -> Int32? {
        var failure: Int32?
        var pending = Data()
        var skipping = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            if count == 0 { break }
            var start = 0
            for index in 0..<count where buffer[index] == 0x0A {
                if skipping {
                    skipping = false
                } else {
                    pending.append(contentsOf: buffer[start..<index])
                    line(pending)
                }
                pending.removeAll(keepingCapacity: true)
                start = index + 1
            }
            if !skipping {
                pending.append(contentsOf: buffer[start..<count])
                if pending.count > limit {
                    line(nil)
                    skipping = true
                    pending.removeAll()
                }
            }
        }
        if !pending.isEmpty && !skipping { line(pending) }
        return failure
    }
}
