import Foundation

/// The static description of installed apps that `shortcuts metadata` prints: every app,
/// intent, parameter, entity, property (with its comparators and sort option), enum case and
/// App Shortcut phrase. Its JSON form is described by `Schemas/metadata.schema.json`.
///
/// ```swift
/// let json = try AppMetadata(catalog: catalog).jsonText()
/// ```
public struct AppMetadata: Codable, Sendable, Equatable {
    /// The format's version.
    public var formatVersion = 1
    /// The apps, by name.
    public var apps: [App]

    public struct App: Codable, Sendable, Equatable {
        public var name: String
        public var locales: [String]
        public var intents: [Intent]
        public var entities: [Entity]
        public var enums: [Enumeration]
        public var shortcuts: [Shortcut]
    }

    public struct Intent: Codable, Sendable, Equatable {
        public var name: String
        public var title: String
        public var description: String?
        public var openAppWhenRun: Bool
        public var isDiscoverable: Bool
        public var summary: String
        public var parameters: [Parameter]
        public var result: Result
    }

    public struct Parameter: Codable, Sendable, Equatable {
        public var name: String
        public var title: String
        public var type: String
        public var isOptional: Bool
        public var isRequired: Bool
        public var defaultValue: IntentValueText?
        public var requestValueDialog: String?
    }

    public struct Result: Codable, Sendable, Equatable {
        public var type: String
        public var valueType: String?
        public var opensIntent: String?
        public var providesDialog: Bool
        public var showsSnippet: Bool
    }

    public struct Entity: Codable, Sendable, Equatable {
        public var name: String
        public var title: String
        public var properties: [Property]
        public var sortOptions: [String]
        public var supportsPropertyQuery: Bool
        public var supportsStringSearch: Bool
        public var isEnumerable: Bool
    }

    public struct Property: Codable, Sendable, Equatable {
        public var name: String
        public var title: String
        public var type: String
        public var comparators: [String]
        public var isSortable: Bool
    }

    public struct Enumeration: Codable, Sendable, Equatable {
        public var name: String
        public var title: String
        public var cases: [EnumerationCase]
    }

    public struct EnumerationCase: Codable, Sendable, Equatable {
        public var value: String
        public var title: String
    }

    public struct Shortcut: Codable, Sendable, Equatable {
        public var intent: String
        public var phrases: [String]
        public var shortTitle: String?
        public var systemImageName: String?
    }

    /// A default value, written as JSON of its kind.
    public typealias IntentValueText = String

    /// Describes every installed app. Titles are in the current ``Localization``; an app known by
    /// its metadata (``IntentApp/init(hosted:host:)``) is described exactly as it was given.
    ///
    /// - Parameter catalog: The installed apps.
    public init(catalog: IntentCatalog) {
        apps = catalog.apps.sorted { $0.name < $1.name }.map(Self.describe)
    }

    private static func describe(_ app: IntentApp) -> App {
        if let hosted = app.hostedMetadata { return hosted }
        let intents = app.intents.map { type -> Intent in
            let shape = type.resultShape
            return Intent(
                name: app.qualifiedName(of: type), title: type.title.description,
                description: type.description?.text.description, openAppWhenRun: type.openAppWhenRun,
                isDiscoverable: type.isDiscoverable, summary: ParameterSummaryRenderer.render(type).template,
                parameters: IntentReflection.descriptors(for: type).map { parameter in
                    Parameter(
                        name: parameter.name, title: parameter.title.description, type: parameter.type.description,
                        isOptional: parameter.isOptional, isRequired: parameter.isRequired,
                        defaultValue: parameter.defaultValue.map(\.displayText),
                        requestValueDialog: parameter.requestValueDialog?.full.description)
                },
                result: Result(
                    type: shape.description, valueType: shape.valueType?.description, opensIntent: shape.opensIntent,
                    providesDialog: shape.providesDialog, showsSnippet: shape.showsSnippet))
        }.sorted { $0.name < $1.name }
        let entities = app.entities.map { type -> Entity in
            let capabilities = EntityQueries.capabilities(of: type)
            return Entity(
                name: app.qualifiedName(ofType: type), title: type.typeDisplayRepresentation.name.description,
                properties: capabilities.properties.map {
                    Property(
                        name: $0.name, title: $0.title, type: $0.type.description,
                        comparators: $0.comparators.map(\.rawValue), isSortable: $0.isSortable)
                },
                sortOptions: capabilities.properties.filter(\.isSortable).map(\.name),
                supportsPropertyQuery: capabilities.supportsPropertyQuery,
                supportsStringSearch: capabilities.supportsStringSearch, isEnumerable: capabilities.isEnumerable)
        }.sorted { $0.name < $1.name }
        let enums = app.enums.map { type -> Enumeration in
            Enumeration(
                name: app.qualifiedName(ofType: type), title: type.typeDisplayRepresentation.name.description,
                cases: type.caseList)
        }.sorted { $0.name < $1.name }
        let shortcuts = (app.shortcuts?.appShortcuts ?? []).map { shortcut in
            Shortcut(
                intent: app.qualifiedName(of: type(of: shortcut.intent)), phrases: shortcut.phrases.map(\.template),
                shortTitle: shortcut.shortTitle?.description, systemImageName: shortcut.systemImageName)
        }
        return App(
            name: app.name, locales: app.strings.locales, intents: intents, entities: entities, enums: enums,
            shortcuts: shortcuts)
    }

    /// The metadata as stable JSON: keys sorted, two-space indentation.
    ///
    /// - Returns: JSON text.
    /// - Throws: An encoding error (not expected for metadata).
    public func jsonText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

extension AppEnum {
    static var caseList: [AppMetadata.EnumerationCase] {
        allCases.map { AppMetadata.EnumerationCase(value: String(describing: $0.rawValue), title: $0.localizedTitle.description) }
    }
}
