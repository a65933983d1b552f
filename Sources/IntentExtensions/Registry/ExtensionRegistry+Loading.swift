import Foundation
import IntentKit

extension ExtensionRegistry {
    /// The installed extensions, ready to be used, and what prevented others.
    public struct Loaded: Sendable {
        /// One host per extension whose program is present and, if it changed, answered.
        public var hosts: [ExtensionHost]
        /// One line per extension left out or refreshed, saying why.
        public var warnings: [String]
    }

    /// Reads the registry and makes a host of every extension, without starting any: an
    /// extension whose program changed since its metadata was read is started once to read it
    /// again (and the registry updated); a missing or broken one is left out with a warning.
    ///
    /// ```swift
    /// let loaded = await ExtensionRegistry(home: ShortcutsHome.directory()).loadHosts()
    /// for warning in loaded.warnings { print("warning: \(warning)") }
    /// ```
    public func loadHosts(configuration: ExtensionHost.Configuration = ExtensionHost.Configuration()) async -> Loaded {
        var entries: [Entry]
        do {
            entries = try load()
        } catch {
            return Loaded(hosts: [], warnings: ["\(error); no extension is loaded"])
        }
        var hosts: [ExtensionHost] = []
        var warnings: [String] = []
        var changed = false
        for (index, entry) in entries.enumerated() {
            let fingerprint: ExecutableFingerprint
            do {
                fingerprint = try ExecutableFingerprint(path: entry.executable, name: entry.name)
            } catch {
                warnings.append("\(error); it is left out (shortcuts extensions remove \(entry.name))")
                continue
            }
            var current = entry
            if fingerprint != entry.fingerprint {
                if let failure = entry.failure, failure.fingerprint == fingerprint {
                    // Not started again at every command: it failed as it is now.
                    warnings.append(
                        "extension \(entry.name) changed and cannot be read again: \(failure.reason); it is left out "
                            + "(shortcuts extensions check \(entry.name) once it is fixed)")
                    continue
                }
                do {
                    let handshake = try await ExtensionHandshake.perform(name: entry.name, executable: entry.executable, configuration: configuration)
                    current.metadata = handshake.metadata
                    current.fingerprint = fingerprint
                    current.checked = configuration.clock.now()
                    current.failure = nil
                    entries[index] = current
                    changed = true
                } catch {
                    warnings.append("extension \(entry.name) changed and cannot be read again: \(error); it is left out")
                    entries[index].failure = Entry.Failure(fingerprint: fingerprint, reason: "\(error)")
                    changed = true
                    continue
                }
            }
            hosts.append(ExtensionHost(name: current.name, executable: current.executable, metadata: current.metadata, configuration: configuration))
        }
        if changed {
            do {
                // Another process may have changed the registry meanwhile: update only what was refreshed.
                var latest = try load()
                for entry in entries {
                    if let index = latest.firstIndex(where: { $0.name == entry.name && $0.executable == entry.executable }) {
                        latest[index] = entry
                    }
                }
                try save(latest)
            } catch {
                warnings.append("the refreshed metadata cannot be saved: \(error)")
            }
        }
        return Loaded(hosts: hosts, warnings: warnings)
    }
}
