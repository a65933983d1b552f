// swift-tools-version:6.0
import PackageDescription

// A package of its own that uses Shortcuts: one intent with a parameter and an enum,
// run through its own command line tool, `greeter`.
let package = Package(
    name: "Greeter",
    dependencies: [
        .package(name: "Shortcuts", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "greeter",
            dependencies: [
                .product(name: "IntentKit", package: "Shortcuts"),
                .product(name: "ShortcutsCLI", package: "Shortcuts")
            ]
        )
    ]
)
