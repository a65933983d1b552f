// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Shortcuts",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "IntentKit", targets: ["IntentKit"]),
        .library(name: "WorkflowKit", targets: ["WorkflowKit"]),
        .library(name: "Cron", targets: ["Cron"]),
        .library(name: "AutomationKit", targets: ["AutomationKit"]),
        .library(name: "SpotlightKit", targets: ["SpotlightKit"]),
        .library(name: "TextEmbedding", targets: ["TextEmbedding"]),
        .library(name: "Digests", targets: ["Digests"]),
        .library(name: "ShortcutsCLI", targets: ["ShortcutsCLI"]),
        .executable(name: "shortcuts", targets: ["shortcuts"])
    ],
    traits: [
        .trait(
            name: "PostgreSQL",
            description: "Keeps the daemons' state and the run history in a PostgreSQL database shared by many machines (SHORTCUTS_DATABASE_URL)."
        ),
        .trait(
            name: "Web",
            description: "Serves the local web dashboard (shortcuts serve, shortcuts daemon --http) with Hummingbird, Mustache and Prometheus."
        )
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
        // Without its default ConfigurationSupport trait, which would compile swift-configuration
        // for nothing the dashboard uses.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0")
    ],
    targets: [
        .target(name: "IntentKit"),
        .target(name: "SQLiteStorage", dependencies: ["Clockwork", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(name: "StateStorage", dependencies: ["SQLiteStorage", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(
            name: "PostgresStorage",
            dependencies: [
                "Clockwork", "StateStorage",
                .target(name: "CLibpq", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        .target(
            name: "WorkflowKit",
            dependencies: [
                "Clockwork", "Cron", "IntentKit", "ValueFunctions", "SQLiteStorage", "StateStorage", .product(name: "Yams", package: "Yams"),
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Metrics", package: "swift-metrics")
            ],
            exclude: ["Resources/workflow.schema.json"]
        ),
        .target(name: "ValueFunctions", dependencies: ["IntentKit"]),
        .target(name: "BuiltInApps", dependencies: ["IntentKit", "ValueFunctions", "ProcessSpawning", "Clockwork"], exclude: ["Resources/ja.lproj"]),
        .target(name: "ProcessGroupGuard"),
        .target(name: "ProcessSpawning", dependencies: ["ProcessGroupGuard"]),
        .target(name: "SeededRandom"),
        .target(name: "Clockwork"),
        .target(name: "Cron"),
        .target(
            name: "AutomationKit",
            dependencies: [
                "Clockwork", "Cron", "IntentKit", "WorkflowKit", "SQLiteStorage", "StateStorage", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics")
            ]
        ),
        .target(name: "EmbeddingKernels"),
        .target(name: "CDigests"),
        .target(name: "Digests", dependencies: ["CDigests"]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLibpq", path: "Sources/CLibpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "TextEmbedding", dependencies: ["EmbeddingKernels", "Digests", "CZlib", "Clockwork"]),
        .target(
            name: "SpotlightKit",
            dependencies: [
                "IntentKit", "SQLiteStorage", "TextEmbedding", "EmbeddingKernels", "Clockwork", .product(name: "GRDB", package: "GRDB.swift")
            ]
        ),
        .executableTarget(
            name: "spotlight-bench",
            dependencies: [
                "SpotlightKit", "SearchRelevance", "TextEmbedding", "EmbeddingKernels", "SeededRandom", .product(name: "GRDB", package: "GRDB.swift")
            ]
        ),
        .executableTarget(
            name: "spotlight-crash-child",
            dependencies: ["SpotlightKit", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(name: "SearchRelevance", dependencies: ["SpotlightKit"]),
        .target(name: "BuildRevision"),
        .target(name: "MCPServerApps", dependencies: ["IntentKit", "ProcessSpawning", "Clockwork", .product(name: "MCP", package: "swift-sdk")]),
        .target(name: "ExtensionSpawn"),
        .target(
            name: "IntentExtensions",
            dependencies: [
                "Clockwork", "IntentKit", "ExtensionSpawn", "ProcessSpawning", .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics")
            ]
        ),
        .target(
            name: "Dashboard",
            dependencies: [
                "Clockwork", "IntentKit", "IntentExtensions", "WorkflowKit", "AutomationKit", "SpotlightKit", "StateStorage", "Digests",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Web"])),
                .product(name: "Mustache", package: "swift-mustache", condition: .when(traits: ["Web"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Web"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Web"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Web"]))
            ],
            exclude: ["Resources/Templates", "Resources/Assets"]
        ),
        .target(
            name: "ShortcutsCLI",
            dependencies: [
                "Dashboard",
                "BuildRevision",
                "Clockwork",
                "IntentKit",
                "IntentExtensions",
                "WorkflowKit",
                "AutomationKit",
                "Cron",
                "SpotlightKit",
                "TextEmbedding",
                "MCPServerApps",
                "ProcessSpawning",
                "StateStorage",
                "PostgresStorage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "MCP", package: "swift-sdk")
            ],
            exclude: ["Resources/Templates"]
        ),
        .target(
            name: "LibraryApp",
            dependencies: ["IntentKit", "SpotlightKit", "SQLiteStorage", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Examples/Library/Sources",
            exclude: ["Resources/catalog.json", "Resources/en.lproj", "Resources/ja.lproj"]
        ),
        .target(
            name: "TagsApp",
            dependencies: ["IntentKit", "SpotlightKit", "SQLiteStorage", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Examples/Tags/Sources"
        ),
        .target(
            name: "JournalApp",
            dependencies: ["IntentKit", "SpotlightKit", "SQLiteStorage", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Examples/Journal/Sources"
        ),
        .executableTarget(
            name: "greeter-example",
            dependencies: ["IntentKit", "ShortcutsCLI"],
            path: "Examples/Greeter/Sources/greeter"
        ),
        .executableTarget(name: "shortcuts", dependencies: ["ShortcutsCLI", "BuiltInApps", "LibraryApp", "TagsApp", "JournalApp"]),
        .executableTarget(
            name: "shortcuts-bench",
            dependencies: [
                "SeededRandom", "AutomationKit", "Cron", "WorkflowKit", "IntentKit", "ValueFunctions", "BuiltInApps", "LibraryApp",
                "LocalHTTP", "ScratchPostgres", "IntentExtensions", "TextEmbedding", "EmbeddingKernels", "StateStorage", "PostgresStorage",
                "Dashboard", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics")
            ]
        ),
        .testTarget(name: "IntentKitTests", dependencies: ["IntentKit", "ShortcutsSystemTestSupport"]),
        .testTarget(
            name: "IntentExtensionsTests",
            dependencies: [
                "Clockwork", "IntentExtensions", "IntentKit", "ShortcutsSystemTestSupport", .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics")
            ]),
        .testTarget(name: "ClockworkTests", dependencies: ["Clockwork", "ShortcutsTestSupport"]),
        .testTarget(name: "ProcessSpawningTests", dependencies: ["ProcessSpawning", "ShortcutsTestSupport"]),
        .testTarget(name: "DigestsTests", dependencies: ["Digests", "SeededRandom", "ShortcutsTestSupport"]),
        .testTarget(
            name: "TextEmbeddingTests", dependencies: ["TextEmbedding", "EmbeddingKernels", "Digests", "CZlib", "ShortcutsTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(name: "ValueFunctionsTests", dependencies: ["ValueFunctions", "IntentKit"]),
        .testTarget(name: "BuiltInAppsTests", dependencies: ["BuiltInApps", "IntentKit", "WorkflowKit", "ShortcutsSystemTestSupport", "Clockwork"]),
        .testTarget(name: "SQLiteStorageTests", dependencies: ["SQLiteStorage", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "SeedListingTests",
            dependencies: ["IntentKit"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "LibraryAppTests", dependencies: ["LibraryApp", "IntentKit", "SpotlightKit", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "TagsAppTests", dependencies: ["TagsApp", "SpotlightKit"]),
        .testTarget(
            name: "JournalAppTests", dependencies: ["JournalApp", "IntentKit", "SpotlightKit", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "WorkflowKitTests",
            dependencies: [
                "Clockwork", "SeededRandom", "WorkflowKit", "IntentKit", "SpotlightKit", "ShortcutsCLI", "LibraryApp", "ShortcutsSystemTestSupport",
                .product(name: "Yams", package: "Yams"), .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics")
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "AutomationKitTests",
            dependencies: [
                "AutomationKit", "StateStorage", "Cron", "WorkflowKit", "IntentKit", "ShortcutsTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics")
            ]
        ),
        .testTarget(
            name: "StateStoreTests",
            dependencies: [
                "StateStorage", "PostgresStorage", "AutomationKit", "WorkflowKit", "IntentKit", "ShortcutsSystemTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics")
            ]
        ),
        .testTarget(name: "SearchRelevanceTests", dependencies: ["SearchRelevance", "SpotlightKit"]),
        .testTarget(name: "CronTests", dependencies: ["Cron", "SeededRandom"], exclude: ["Fixtures", "Oracle"]),
        .testTarget(
            name: "SpotlightKitTests",
            dependencies: [
                "SeededRandom", "SpotlightKit", "TextEmbedding", "IntentKit", "spotlight-crash-child", "Clockwork",
                "ShortcutsTestSupport", .product(name: "GRDB", package: "GRDB.swift")
            ]
        ),
        .testTarget(
            name: "ShortcutsCLITests",
            dependencies: [
                "ShortcutsCLI", "IntentKit", "BuiltInApps", "LibraryApp", "TagsApp", "JournalApp", "Clockwork", "ProcessSpawning", "SeededRandom",
                "ShortcutsTestSupport", "Dashboard", .product(name: "MCP", package: "swift-sdk")
            ]),
        .testTarget(
            name: "MCPServerAppsTests",
            dependencies: ["MCPServerApps", "IntentKit", "ShortcutsSystemTestSupport", "Clockwork", .product(name: "MCP", package: "swift-sdk")]),
        .target(name: "LocalHTTP", path: "Tests/LocalHTTP"),
        .target(name: "ScratchPostgres", path: "Tests/ScratchPostgres"),
        // The support every suite may use: temporary homes, the manual clock, waits for events,
        // the binary and background programs.
        .target(name: "ShortcutsTestSupport", dependencies: ["Clockwork", "ProcessSpawning"], path: "Tests/ShortcutsTestSupport"),
        // The system components some suites need (PostgreSQL, a session bus, a display, Selenium,
        // a local HTTP server, Python programs) and the hosted apps they test against.
        .target(
            name: "ShortcutsSystemTestSupport",
            dependencies: ["ShortcutsTestSupport", "BuiltInApps", "IntentKit", "LocalHTTP", "ScratchPostgres"],
            path: "Tests/ShortcutsSystemTestSupport"),
        .testTarget(
            name: "DashboardTests",
            dependencies: [
                "Dashboard", "ShortcutsTestSupport", "IntentKit", "WorkflowKit", "AutomationKit", "SpotlightKit", "StateStorage", "BuiltInApps",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Web"]))
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "ShortcutsSystemTestSupport", "IntentKit", "WorkflowKit", "BuiltInApps", "LibraryApp", "Dashboard", "ShortcutsCLI",
                .product(name: "GRDB", package: "GRDB.swift")
            ],
            exclude: ["Fixtures"]
        )
    ]
)
