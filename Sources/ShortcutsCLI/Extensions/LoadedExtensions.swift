import Foundation
import IntentExtensions
import IntentKit
import Synchronization

/// The installed extensions, loaded at start-up as hosted apps beside the tool's own.
///
/// No extension starts here: each starts on its first use. A registry that cannot be read, a
/// missing program or one that changed and no longer answers is a warning on standard error,
/// and the tool goes on without it. `TOOL extension serve` loads none (an extension serves its
/// own apps only).
enum LoadedExtensions {
    private static let loaded = Mutex<[ExtensionHost]>([])

    /// The hosts of the installed extensions whose apps do not clash with `apps`.
    static func load(besides apps: [IntentApp], arguments: [String]) async -> [ExtensionHost] {
        guard arguments.first != "extension" else { return [] }
        let result = await ExtensionRegistry(home: ShortcutsHome.directory())
            .loadHosts(configuration: ExtensionHost.Configuration(engineVersion: ToolVersion.number))
        var warnings = result.warnings
        var taken = Set(apps.map(\.name))
        var hosts: [ExtensionHost] = []
        for host in result.hosts {
            let names = host.apps.map(\.name)
            if let clash = names.first(where: taken.contains) {
                warnings.append("extension \(host.name) is left out: its app \(clash) has the name of an installed app")
                continue
            }
            taken.formUnion(names)
            hosts.append(host)
        }
        for warning in warnings { CommandOutput.current.writeError(Data("warning: \(warning)\n".utf8)) }
        loaded.withLock { $0 = hosts }
        return hosts
    }

    /// Sets how long each extension may stay up without requests.
    static func setIdleTimeout(_ timeout: Duration?) {
        for host in loaded.withLock({ $0 }) { host.idleTimeout = timeout }
    }
}
