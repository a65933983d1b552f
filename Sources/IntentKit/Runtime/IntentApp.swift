import Foundation

/// An app as the engine and the command line see it: a name, its intents, entities and
/// enums, its App Shortcuts, its strings, and what to do before its intents run.
///
/// ```swift
/// let greeter = IntentApp(
///     name: "Greeter",
///     intents: [Greet.self],
///     strings: try StringsCatalog(directory: Bundle.module.resourceURL!)
/// )
/// ```
public struct IntentApp: Sendable {
    /// The app's name; intents are named `Name.Intent`.
    public var name: String
    /// The app's intents.
    public var intents: [any AppIntent.Type]
    /// The app's entity types (those used by its intents' parameters are added automatically).
    public var entities: [any AppEntity.Type]
    /// The app's enum types (those used by its intents' parameters are added automatically).
    public var enums: [any AppEnum.Type]
    /// The app's App Shortcuts.
    public var shortcuts: (any AppShortcutsProvider.Type)?
    /// The app's strings tables.
    public var strings: StringsCatalog
    /// What the app provides besides intents, for the modules that know how to use it — such
    /// as the search indexes it keeps (SpotlightKit's `AppSearchIndex`).
    public var features: [any AppFeature]
    /// Runs once before the first intent of the app: registers dependencies, opens storage.
    public var setUp: @Sendable () async throws -> Void
    /// The description and host of an app whose code runs in another process.
    package private(set) var hosted: HostedApp?

    /// Creates an app.
    public init(
        name: String, intents: [any AppIntent.Type], entities: [any AppEntity.Type] = [],
        enums: [any AppEnum.Type] = [], shortcuts: (any AppShortcutsProvider.Type)? = nil,
        strings: StringsCatalog = StringsCatalog(), features: [any AppFeature] = [],
        setUp: @escaping @Sendable () async throws -> Void = {}
    ) {
        self.name = name
        self.intents = intents
        self.strings = strings
        self.features = features
        self.shortcuts = shortcuts
        self.setUp = setUp
        var entityTypes = entities
        var enumTypes = enums
        func collect(_ type: IntentValueType) {
            switch type {
            case .entity(let reference):
                guard let type = reference.type else { return }
                if !entityTypes.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(type) }) {
                    entityTypes.append(type)
                }
            case .enumeration(let reference):
                guard let type = reference.type else { return }
                if !enumTypes.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(type) }) {
                    enumTypes.append(type)
                }
            case .list(let element), .optional(let element), .dictionary(let element): collect(element)
            default: break
            }
        }
        for intent in intents {
            for parameter in IntentReflection.descriptors(for: intent) { collect(parameter.type) }
        }
        for entity in entityTypes {
            for property in EntityReflection.schema(for: entity)?.descriptors ?? [] { collect(property.type) }
        }
        self.entities = entityTypes
        self.enums = enumTypes
    }

    /// Creates an app whose code runs in another process, known by its metadata (the shape
    /// `shortcuts metadata` prints): its intents run, and its entity types are queried, through
    /// the host. It sits in an ``IntentCatalog`` beside Swift apps.
    ///
    /// ```swift
    /// let metadata = try JSONDecoder().decode(AppMetadata.self, from: data).apps[0]
    /// let catalog = IntentCatalog(apps: [LibraryApp.app, IntentApp(hosted: metadata, host: host)])
    /// let outcome = try await IntentPerformer(catalog: catalog).perform("Greeter.Greet", arguments: ["name": .string("Ada")])
    /// ```
    ///
    /// - Parameters:
    ///   - metadata: The app's metadata.
    ///   - host: Who performs its intents and answers its entity queries.
    public init(hosted metadata: AppMetadata.App, host: any IntentHost) {
        self.init(name: metadata.name, intents: [])
        self.hosted = HostedApp(metadata: metadata, host: host)
    }

    /// The metadata of an app created with ``init(hosted:host:)``, exactly as given.
    public var hostedMetadata: AppMetadata.App? { hosted?.metadata }

    /// The intents, Swift ones and hosted ones.
    public var intentDefinitions: [IntentDefinition] {
        if let hosted { return hosted.intents.map { IntentDefinition(.hosted($0)) } }
        return intents.map { IntentDefinition(.swift($0)) }
    }

    /// The entity types, Swift ones and hosted ones.
    public var entityTypes: [EntityTypeReference] {
        if let hosted { return hosted.entities.map(EntityTypeReference.init(hosted:)) }
        return entities.map(EntityTypeReference.init)
    }

    /// The enum types, Swift ones and hosted ones.
    public var enumTypes: [EnumTypeReference] {
        if let hosted { return hosted.enums.map(EnumTypeReference.init(hosted:)) }
        return enums.map(EnumTypeReference.init)
    }

    /// The full name of one of the app's intents: `Library.AddBook`.
    public func qualifiedName(of intent: any AppIntent.Type) -> String {
        name + "." + IntentReflection.typeName(of: intent)
    }

    /// The full name of one of the app's entity or enum types: `Library.BookEntity`.
    public func qualifiedName(ofType type: Any.Type) -> String {
        "\(name).\(String(describing: type))"
    }

    /// The app's name in a locale (the strings key `CFBundleDisplayName`, else ``name``).
    public func displayName(in localization: Localization) -> String {
        localization.strings.lookUp("CFBundleDisplayName", table: nil, locale: localization.locale) ?? name
    }
}

/// Something an app provides besides its intents, entities and enums, declared on its
/// ``IntentApp`` and found by the module that defines the feature's type.
///
/// SpotlightKit's `AppSearchIndex` is one: an app declares the search index it keeps, and the
/// command line and workflows find it through the app.
///
/// ```swift
/// let app = IntentApp(name: "Library", intents: [AddBook.self], features: [LibraryApp.searchIndex])
/// let indexes = app.features.compactMap { $0 as? AppSearchIndex }
/// ```
public protocol AppFeature: Sendable {}
