import Foundation
import IntentKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the kernel and `/etc/os-release` say about the machine, read when asked.
///
/// ```swift
/// let disk = try DeviceReadings.disk(holding: "/")
/// disk.usedPercent   // 41.5
/// ```
enum DeviceReadings {
    /// The file system that holds a path: sizes in bytes.
    struct Disk: Equatable {
        var path: String
        var total: Int
        var free: Int
        var used: Int
        /// `used / (used + free)`, as `df` computes `Use%`, rounded to one decimal.
        var usedPercent: Double
    }

    /// The names `uname(2)` gives.
    struct Kernel: Equatable {
        var name: String
        var hostName: String
        var kernel: String
        var architecture: String
    }

    /// Measures the file system that holds `path` with `statvfs(3)`.
    ///
    /// - Parameter path: A file or folder; `~` expands, a relative path is relative to the
    ///   working directory.
    /// - Returns: Its sizes.
    /// - Throws: ``SystemApp/DeviceDetails/Error`` naming the path when it does not exist or
    ///   cannot be measured.
    static func disk(holding path: String) throws -> Disk {
        let expanded = HomeFolder.expandingTilde(path)
        let absolute = URL(fileURLWithPath: expanded).standardizedFileURL.path
        var stats = statvfs()
        guard statvfs(absolute, &stats) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw SystemApp.DeviceDetails.Error.pathNotFound(path: path) }
            throw SystemApp.DeviceDetails.Error.cannotMeasure(path: path, reason: String(cString: strerror(code)))
        }
        let blockSize = Int(stats.f_frsize)
        let total = Int(stats.f_blocks) * blockSize
        let used = (Int(stats.f_blocks) - Int(stats.f_bfree)) * blockSize
        let free = Int(stats.f_bavail) * blockSize
        let percent = used + free == 0 ? 0 : (Double(used) / Double(used + free) * 1000).rounded() / 10
        return Disk(path: absolute, total: total, free: free, used: used, usedPercent: percent)
    }

    /// The host's name, the kernel's name and release, and the machine's architecture.
    static var kernel: Kernel {
        var names = utsname()
        uname(&names)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let name = text(names.sysname)
        return Kernel(name: name, hostName: text(names.nodename), kernel: "\(name) \(text(names.release))", architecture: text(names.machine))
    }

    /// The keys of `/etc/os-release` (or `/usr/lib/os-release`), unquoted; empty without either.
    static var operatingSystem: [String: String] {
        for file in ["/etc/os-release", "/usr/lib/os-release"] {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            return osRelease(text)
        }
        return [:]
    }

    /// Parses os-release text: `KEY=value` lines, values optionally in quotes.
    ///
    /// ```swift
    /// DeviceReadings.osRelease("NAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"")["NAME"]   // "Debian GNU/Linux"
    /// ```
    static func osRelease(_ text: String) -> [String: String] {
        var keys: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
            }
            keys[String(line[..<equals])] = value
        }
        return keys
    }

    /// Processors online.
    static var processorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// The lines of `/proc/meminfo`, in bytes: `MemTotal`, `MemAvailable`, …
    static var memory: [String: Int] {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return [:] }
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == ":" || $0 == " " })
            guard parts.count >= 2, let number = Int(parts[1]) else { continue }
            values[String(parts[0])] = parts.count >= 3 && parts[2] == "kB" ? number * 1024 : number
        }
        return values
    }

    /// Seconds since boot, the first number of `/proc/uptime`.
    static var uptime: Double? {
        guard let text = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    /// The first battery's charge and status, or `nil` when the machine has none.
    ///
    /// - Parameter folder: Where power supplies are listed (`/sys/class/power_supply`).
    static func battery(in folder: String = "/sys/class/power_supply") -> [String: IntentValue]? {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix("BAT") }.sorted()
        guard let name = names.first else { return nil }
        func read(_ file: String) -> String? {
            (try? String(contentsOfFile: "\(folder)/\(name)/\(file)", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return [
            "name": .string(name),
            "percent": read("capacity").flatMap { Int($0) }.map(IntentValue.int) ?? .null,
            "status": read("status").map(IntentValue.string) ?? .null
        ]
    }

    static var battery: [String: IntentValue]? { battery() }
}
