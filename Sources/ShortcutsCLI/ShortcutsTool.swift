import ArgumentParser
import Foundation
import IntentKit
import ProcessSpawning
import WorkflowKit

/// The `shortcuts` command line as a library, so an app ships its own tool in a few lines:
///
/// ```swift
/// // Sources/greeter/main.swift
/// import ShortcutsCLI
/// await ShortcutsTool.main(apps: [GreeterApp.app], commandName: "greeter")
/// ```
///
/// The tool is also an extension: `greeter extension serve` serves the same apps to an engine
/// over the extension protocol (`Schemas/extension-protocol.md`), so `shortcuts extensions add`
/// adds their intents to an installed `shortcuts` without rebuilding it.
///
/// The search indexes the apps declare (SpotlightKit's `AppSearchIndex` among an app's
/// `features`) are searched and managed by `search` and `index`.
public enum ShortcutsTool {
    /// Runs the command line with the process's arguments and exits.
    ///
    /// Commands throw; this is the one place that prints an error and exits (0 success, 1 the
    /// intent or workflow failed, 64 usage, 130 interrupted).
    ///
    /// - Parameters:
    ///   - apps: The apps whose intents the tool runs.
    ///   - commandName: The name shown in help, usage and hints.
    ///   - version: What `--version` prints (this package's version and revision by default).
    ///   - arguments: The arguments (the process's, without its name, by default).
    public static func main(
        apps: [IntentApp], commandName: String = "shortcuts", version: String = ToolVersion.text,
        arguments: [String] = Array(CommandLine.arguments.dropFirst())
    ) async -> Never {
        // First of the exit handlers, so it runs last: the programs left are ended once the
        // hosts have stopped theirs gently.
        ChildGroups.waitForGuardAtExit()
        // Installed extensions join as hosted apps; none starts before its first use.
        let extensions = await LoadedExtensions.load(besides: apps, arguments: arguments).flatMap { host in
            host.apps.map { IntentApp(hosted: $0, host: host) }
        }
        Installation.process.install(
            catalog: IntentCatalog(apps: apps + extensions), commandName: commandName, version: version, arguments: arguments)
        ExtensionServeCommand.servedApps.withLock { $0 = apps }
        WorkflowSearch.bootstrap { catalog in SpotlightSearchProvider(catalog: catalog) }
        SemanticSearchSetup.install()
        // The servers' apps join the built-in ones and the extensions'.
        exit(await execute(arguments, installingServersBesides: apps + extensions))
    }

    /// Runs one command line in this process and returns its exit status, printing what it
    /// prints to ``CommandOutput/current``: what ``main(apps:commandName:version:arguments:)``
    /// does after setting up the process, without exiting.
    ///
    /// A test runs commands this way, many at once, each with its own output and clock:
    ///
    /// ```swift
    /// let status = await CommandOutput.$current.withValue(captured) {
    ///     await ShortcutsTool.run(["cron", "next", "0 9 * * 1-5"], apps: BuiltInApps.all)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - arguments: The arguments, without the command's name.
    ///   - apps: The apps whose intents the tool runs; installed extensions are not loaded.
    ///   - commandName: The name shown in help, usage and hints.
    /// - Returns: The exit status: 0 success, 1 the intent or workflow failed, 64 usage, 130 interrupted.
    public static func run(_ arguments: [String], apps: [IntentApp], commandName: String = "shortcuts") async -> Int32 {
        let installation = Installation()
        installation.install(catalog: IntentCatalog(apps: apps), commandName: commandName, version: ToolVersion.text, arguments: arguments)
        return await Installation.$current.withValue(installation) {
            await execute(arguments, installingServersBesides: nil)
        }
    }

    /// Parses and runs a command; reports its error, if any, and returns its exit status.
    private static func execute(_ arguments: [String], installingServersBesides apps: [IntentApp]?) async -> Int32 {
        do {
            try HelpTopic.check(arguments)
            var command = try await ShortcutsCommand.asyncParseAsRoot(arguments)
            if let apps { await MCPServersCommand.installServers(for: command, besides: apps) }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            return CommandLineError.report(error)
        }
    }
}

/// What the running tool was started with: the installed apps and its arguments (for
/// diagnostics that point at an argument).
final class Installation: @unchecked Sendable {
    /// The process's: what `main` installs, and what every thread of the process sees.
    static let process = Installation()
    /// The installation of a command run in process (``ShortcutsTool/run(_:apps:commandName:)``),
    /// in its task and the tasks it starts.
    @TaskLocal static var current: Installation?
    /// The installation of the command running in this task, else the process's.
    static var shared: Installation { current ?? process }
    private let lock = NSLock()
    private var installedCatalog = IntentCatalog(apps: [])
    private var installedName = "shortcuts"
    private var installedVersion = ToolVersion.text
    private var installedArguments: [String] = []

    func install(catalog: IntentCatalog, commandName: String, version: String, arguments: [String]) {
        lock.withLock {
            installedCatalog = catalog
            installedName = commandName
            installedVersion = version
            installedArguments = arguments
        }
    }

    var catalog: IntentCatalog { lock.withLock { installedCatalog } }
    var commandName: String { lock.withLock { installedName } }
    var version: String { lock.withLock { installedVersion } }
    var arguments: [String] { lock.withLock { installedArguments } }
}

struct ShortcutsCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: Installation.shared.commandName,
            abstract: "Run intents, App Shortcuts and workflows from the command line.",
            discussion: """
                Data lives in $SHORTCUTS_HOME (default $XDG_DATA_HOME/shortcuts, else ~/.local/share/shortcuts).
                Exit codes: 0 success, 1 the intent or workflow failed, 64 usage error, 130 interrupted.
                """,
            version: Installation.shared.version,
            subcommands: [
                RunCommand.self, NewCommand.self, PerformCommand.self, ValidateCommand.self, ListCommand.self, ViewCommand.self, MetadataCommand.self,
                SchemaCommand.self, RunsCommand.self, SayCommand.self, CronCommand.self, DaemonCommand.self, ExtensionsCommand.self,
                AutomationsCommand.self, DaemonsCommand.self, SearchCommand.self, IndexCommand.self, SecretsCommand.self, ExtensionCommand.self,
                MCPCommand.self, MCPServersCommand.self, ModelsCommand.self, ServeCommand.self, ServiceCommand.self
            ])
    }
}
