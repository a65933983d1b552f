import Foundation

/// An app known by its metadata whose intents run in an ``IntentHost``: the description the
/// engine reads its intents, entity types and enums from, and the host it asks.
///
/// Types in metadata are text (`String?`, `[BookEntity]`, `[String: String]`, `Shelf`); they
/// are read with ``type(named:)``, entity and enum names resolving within the app.
package final class HostedApp: Sendable {
    /// The app's metadata, exactly as given.
    package let metadata: AppMetadata.App
    /// Who performs the intents and answers the queries.
    package let host: any IntentHost

    package init(metadata: AppMetadata.App, host: any IntentHost) {
        self.metadata = metadata
        self.host = host
    }

    /// The app's name.
    package var name: String { metadata.name }

    /// A name without the app's prefix: `Library.BookEntity` → `BookEntity`.
    package func shortName(_ name: String) -> String {
        name.hasPrefix(metadata.name + ".") ? String(name.dropFirst(metadata.name.count + 1)) : name
    }

    /// The app's intents.
    package var intents: [HostedIntent] {
        metadata.intents.map { HostedIntent(app: self, metadata: $0) }
    }

    /// The app's entity types.
    package var entities: [HostedEntityType] {
        metadata.entities.map { HostedEntityType(app: self, metadata: $0) }
    }

    /// The app's enums.
    package var enums: [HostedEnumType] {
        metadata.enums.map { HostedEnumType(app: self, metadata: $0) }
    }

    /// An intent by its name within the app (`Greet`) or its full name (`Greeter.Greet`).
    package func intent(named name: String) -> HostedIntent? {
        metadata.intents.first { shortName($0.name) == shortName(name) }.map { HostedIntent(app: self, metadata: $0) }
    }

    /// Reads a type written in metadata: `Int`, `String?`, `[BookEntity]`, `[String: String]`,
    /// `Shelf`. Entity and enum names resolve within the app; a name nothing declares is `Any`.
    ///
    /// ```swift
    /// app.type(named: "[BookEntity]?")   // .optional(.list(.entity(BookEntity)))
    /// ```
    package func type(named text: String) -> IntentValueType {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("?") { return .optional(type(named: String(text.dropLast()))) }
        if text.hasPrefix("["), text.hasSuffix("]") {
            let inner = text.dropFirst().dropLast()
            var depth = 0
            for index in inner.indices {
                switch inner[index] {
                case "[": depth += 1
                case "]": depth -= 1
                case ":" where depth == 0: return .dictionary(type(named: String(inner[inner.index(after: index)...])))
                default: break
                }
            }
            return .list(type(named: String(inner)))
        }
        switch text {
        case "Bool": return .bool
        case "Int": return .int
        case "Double": return .double
        case "String": return .string
        case "Date": return .date
        case "URL": return .url
        case "UUID": return .uuid
        case "File": return .file
        default: break
        }
        let name = shortName(text)
        if let entity = metadata.entities.first(where: { shortName($0.name) == name }) {
            return .entity(EntityTypeReference(hosted: HostedEntityType(app: self, metadata: entity)))
        }
        if let enumeration = metadata.enums.first(where: { shortName($0.name) == name }) {
            return .enumeration(EnumTypeReference(hosted: HostedEnumType(app: self, metadata: enumeration)))
        }
        return .any
    }

    /// Converts a value the host returned (in the value JSON of the extension protocol) to a
    /// declared type: entities from their `{"type","id","title","subtitle","properties"}` form,
    /// enum cases from their raw values, dates from ISO 8601 text. What does not convert is
    /// kept as it is.
    package func decode(_ value: IntentValue, as type: IntentValueType) -> IntentValue {
        switch type {
        case .optional(let wrapped):
            return value.isNull ? .null : decode(value, as: wrapped)
        case .list(let element):
            guard case .list(let items) = value else { return value }
            return .list(items.map { decode($0, as: element) })
        case .dictionary(let element):
            guard case .dictionary(let entries) = value else { return value }
            return .dictionary(entries.mapValues { decode($0, as: element) })
        case .entity(let reference):
            guard case .hosted(let entity) = reference.definition else { return value }
            return entity.decode(value).map(IntentValue.entity) ?? value
        case .any, .entity:
            return value
        default:
            return (try? ValueCoercion.coerce(value, to: type)) ?? value
        }
    }
}

/// An intent of a hosted app, described by its metadata.
package struct HostedIntent: Sendable {
    package let app: HostedApp
    package let metadata: AppMetadata.Intent

    /// The name within the app (`Greet`).
    package var name: String { app.shortName(metadata.name) }

    /// The parameters, their types read from the metadata.
    package var parameters: [ParameterDescriptor] {
        metadata.parameters.map { parameter in
            let type = app.type(named: parameter.type)
            return ParameterDescriptor(
                name: parameter.name, title: LocalizedStringResource(parameter.title), description: nil, type: type,
                defaultValue: parameter.defaultValue.flatMap { try? ValueCoercion.coerce(.string($0), to: type) },
                requestValueDialog: parameter.requestValueDialog.map { IntentDialog(LocalizedStringResource($0)) })
        }
    }

    /// What the intent's results carry.
    package var resultShape: IntentResultShape {
        let result = metadata.result
        return IntentResultShape(
            valueType: result.valueType.map(app.type(named:)), opensIntent: result.opensIntent,
            providesDialog: result.providesDialog, showsSnippet: result.showsSnippet)
    }
}

/// An entity type of a hosted app, described by its metadata; its queries go to the host.
package struct HostedEntityType: Sendable, Hashable {
    package let app: HostedApp
    package let metadata: AppMetadata.Entity

    /// The name within the app (`BookEntity`).
    package var name: String { app.shortName(metadata.name) }

    /// The properties, their types read from the metadata.
    package var properties: [EntityPropertyDescriptor] {
        metadata.properties.map {
            EntityPropertyDescriptor(name: $0.name, title: LocalizedStringResource($0.title), type: app.type(named: $0.type))
        }
    }

    /// What the type's queries can do, as the metadata declares it.
    package var capabilities: EntityQueryCapabilities {
        EntityQueryCapabilities(
            properties: metadata.properties.map { property in
                EntityQueryCapabilities.Property(
                    name: property.name, title: property.title, type: app.type(named: property.type),
                    comparators: property.comparators.compactMap(ComparatorKind.init(rawValue:)), isSortable: property.isSortable)
            },
            supportsPropertyQuery: metadata.supportsPropertyQuery, isEnumerable: metadata.isEnumerable,
            supportsStringSearch: metadata.supportsStringSearch)
    }

    /// Asks the host.
    package func entities(_ query: HostedEntityRequest.Query) async throws -> [EntityValue] {
        let request = HostedEntityRequest(app: app.name, entity: name, query: query, locale: Localization.current.locale)
        return try await app.host.entities(request).map { decode(.entity($0)) ?? $0 }
    }

    /// An entity from the host's value JSON, its properties converted to their declared types.
    package func decode(_ value: IntentValue) -> EntityValue? {
        var entity: EntityValue
        switch value {
        case .entity(let given):
            entity = given
            entity.typeName = name
        case .dictionary(let fields):
            guard let identifier = fields["id"].map(\.displayText) else { return nil }
            var properties: [String: IntentValue] = [:]
            if case .dictionary(let given) = fields["properties"] { properties = given }
            entity = EntityValue(
                typeName: name, identifier: identifier, title: fields["title"].map(\.displayText) ?? identifier,
                subtitle: fields["subtitle"].flatMap { $0.isNull ? nil : $0.displayText }, properties: properties)
        default:
            return nil
        }
        let declared = Dictionary(metadata.properties.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        entity.properties = Dictionary(
            uniqueKeysWithValues: entity.properties.map { name, value in
                (name, declared[name].map { app.decode(value, as: app.type(named: $0)) } ?? value)
            })
        return entity
    }

    package static func == (lhs: HostedEntityType, rhs: HostedEntityType) -> Bool {
        lhs.app.name == rhs.app.name && lhs.metadata.name == rhs.metadata.name
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(app.name)
        hasher.combine(metadata.name)
    }
}

/// An enum of a hosted app, described by its metadata.
package struct HostedEnumType: Sendable, Hashable {
    package let app: HostedApp
    package let metadata: AppMetadata.Enumeration

    /// The name within the app (`Shelf`).
    package var name: String { app.shortName(metadata.name) }

    /// The case whose value or title is the text (ignoring case and surrounding spaces), as
    /// ``AppEnum`` cases convert.
    ///
    /// - Throws: ``ValueConversionError`` listing the cases.
    package func coerce(_ value: IntentValue) throws -> IntentValue {
        let text: String
        switch value {
        case .enumCase(let given): text = given.rawValue
        case .string(let given): text = given
        case .int(let given): text = String(given)
        default: throw ValueConversionError(value: value, expectedType: .enumeration(EnumTypeReference(hosted: self)))
        }
        let wanted = text.trimmingCharacters(in: .whitespaces)
        let folded = wanted.lowercased()
        let match =
            metadata.cases.first { $0.value == wanted }
            ?? metadata.cases.first { $0.value.lowercased() == folded || $0.title.lowercased() == folded }
        guard let match else {
            throw ValueConversionError(
                value: value, expectedType: .enumeration(EnumTypeReference(hosted: self)),
                hint: "one of \(metadata.cases.map(\.value).joined(separator: ", "))")
        }
        return .enumCase(EnumCaseValue(typeName: name, rawValue: match.value, title: match.title))
    }

    package static func == (lhs: HostedEnumType, rhs: HostedEnumType) -> Bool {
        lhs.app.name == rhs.app.name && lhs.metadata.name == rhs.metadata.name
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(app.name)
        hasher.combine(metadata.name)
    }
}
