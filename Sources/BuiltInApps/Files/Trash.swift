import Clockwork
import Foundation
import IntentKit

/// The user's trash, as the FreeDesktop.org trash specification lays it out, so desktop file
/// managers show what was deleted and can restore it.
///
/// The trash is `$XDG_DATA_HOME/Trash` (`~/.local/share/Trash` when the variable is unset):
/// a trashed item goes to `files/NAME`, and `info/NAME.trashinfo` records where it was and
/// when it was deleted. The info file is created first, exclusively, which reserves the name;
/// a name already in the trash gets a number (`report.txt`, `report.2.txt`, …). An item on
/// another file system than the trash is copied into it and then removed.
///
/// ```swift
/// let trash = Trash(folder: URL(fileURLWithPath: "/tmp/test-data/Trash"), clock: .system)
/// let trashed = try trash.put(URL(fileURLWithPath: "/tmp/old.log"))
/// ```
struct Trash {
    /// The trash folder (holding `files` and `info`).
    var folder: URL
    /// The clock whose time is recorded as the deletion date when none is given.
    var clock: any EngineClock = .system

    /// The trash of the user the process runs as, from the environment, dating deletions by
    /// `clock`.
    static func home(
        environment: [String: String] = ProcessEnvironment.current, clock: any EngineClock = TaskClock.current
    ) -> Trash {
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? URL(fileURLWithPath: HomeFolder.path(environment: environment)).appendingPathComponent(".local/share")
        return Trash(folder: dataHome.appendingPathComponent("Trash"), clock: clock)
    }

    var filesFolder: URL { folder.appendingPathComponent("files") }
    var infoFolder: URL { folder.appendingPathComponent("info") }

    /// Moves an item into the trash.
    ///
    /// - Parameters:
    ///   - url: The file or folder (absolute).
    ///   - date: The deletion date recorded; the trash's clock's time when `nil`.
    /// - Returns: Where the item now is, in the trash's `files` folder.
    /// - Throws: ``FilesApp/FileError`` when the item is missing or cannot be moved.
    @discardableResult
    func put(_ url: URL, date: Date? = nil) throws -> URL {
        let date = date ?? clock.now()
        let path = url.path
        var info = stat()
        guard lstat(path, &info) == 0 else { throw FilesApp.FileError.system(errno, operation: "move to the trash", path: path) }
        if case .special(let kind) = FileKind(mode: info.st_mode) {
            throw FilesApp.FileError.specialFile(path: path, kind: kind, operation: "move to the trash")
        }
        do {
            for created in [filesFolder, infoFolder] {
                try FileManager.default.createDirectory(at: created, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        } catch {
            throw FilesApp.FileError.from(error, operation: "create the trash folder", path: folder.path)
        }
        let (name, infoFile) = try reserveName(for: url, date: date)
        let destination = filesFolder.appendingPathComponent(name)
        if rename(path, destination.path) != 0 {
            let code = errno
            guard code == EXDEV else {
                unlink(infoFile.path)
                throw FilesApp.FileError.system(code, operation: "move to the trash", path: path)
            }
            do {
                try FileManager.default.copyItem(at: url, to: destination)
                try FileManager.default.removeItem(at: url)
            } catch {
                try? FileManager.default.removeItem(at: destination)
                unlink(infoFile.path)
                throw FilesApp.FileError.from(error, operation: "move to the trash", path: path)
            }
        }
        return destination
    }

    /// Creates `info/NAME.trashinfo` exclusively under the first free name.
    private func reserveName(for url: URL, date: Date) throws -> (String, URL) {
        let base = url.deletingPathExtension().lastPathComponent
        let pathExtension = url.pathExtension
        let contents = Data(Self.infoText(originalPath: url.path, date: date).utf8)
        for number in 1...10_000 {
            var name = number == 1 ? base : "\(base).\(number)"
            if !pathExtension.isEmpty { name += ".\(pathExtension)" }
            if number == 1 { name = url.lastPathComponent }
            let infoFile = infoFolder.appendingPathComponent(name + ".trashinfo")
            let descriptor = open(infoFile.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor < 0 {
                if errno == EEXIST { continue }
                throw FilesApp.FileError.system(errno, operation: "write the trash entry", path: infoFile.path)
            }
            defer { close(descriptor) }
            if FileManager.default.fileExists(atPath: filesFolder.appendingPathComponent(name).path) {
                unlink(infoFile.path)
                continue
            }
            let written = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == contents.count else {
                let code = errno
                unlink(infoFile.path)
                throw FilesApp.FileError.system(code, operation: "write the trash entry", path: infoFile.path)
            }
            return (name, infoFile)
        }
        throw FilesApp.FileError.failed(operation: "move to the trash", path: url.path, cause: "the trash holds too many items of that name")
    }

    /// The `.trashinfo` text: the original path, percent-encoded, and the local deletion time.
    static func infoText(originalPath: String, date: Date) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "/-_.~")
        let encoded = originalPath.addingPercentEncoding(withAllowedCharacters: allowed) ?? originalPath
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return "[Trash Info]\nPath=\(encoded)\nDeletionDate=\(formatter.string(from: date))\n"
    }
}
