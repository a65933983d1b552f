import Foundation
import IntentKit

/// Converts values between the engine's value JSON and ``IntentValue``s, by the types an
/// extension's metadata declares: text becomes a date where a `Date` is declared, an entity
/// object an ``EntityValue`` of the declared entity, a raw value an enum case with its title.
///
/// ```swift
/// let values = HostedValues(app: metadata.apps[0])
/// values.value(from: "2018-08-14", type: "Date")   // .date(…)
/// values.json(from: .date(date))                     // "2018-08-14T00:00:00Z"
/// ```
struct HostedValues: Sendable {
    let app: AppMetadata.App
    private let entities: [String: AppMetadata.Entity]
    private let enums: [String: AppMetadata.Enumeration]

    init(app: AppMetadata.App) {
        self.app = app
        entities = Dictionary(app.entities.map { (Self.shortName($0.name, app: app.name), $0) }) { first, _ in first }
        enums = Dictionary(app.enums.map { (Self.shortName($0.name, app: app.name), $0) }) { first, _ in first }
    }

    /// `Pantry.ItemEntity` → `ItemEntity`.
    static func shortName(_ name: String, app: String) -> String {
        name.hasPrefix(app + ".") ? String(name.dropFirst(app.count + 1)) : name
    }

    /// The entity type of the app with this name (short or qualified).
    func entity(named name: String) -> AppMetadata.Entity? {
        entities[Self.shortName(name, app: app.name)]
    }

    /// The intent of the app with this name (short or qualified).
    func intent(named name: String) -> AppMetadata.Intent? {
        let short = Self.shortName(name, app: app.name)
        return app.intents.first { Self.shortName($0.name, app: app.name) == short }
    }

    // MARK: To JSON

    /// The value's JSON, as `IntentValue`'s `Encodable` form writes it.
    func json(from value: IntentValue) -> JSONValue { Self.json(from: value) }

    /// The value's JSON, as `IntentValue`'s `Encodable` form writes it.
    static func json(from value: IntentValue) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .date(let date): .string(DateText.format(date))
        case .url(let url): .string(url.absoluteString)
        case .file(let file): .string(file.fileURL.path)
        case .list(let elements): .array(elements.map(json(from:)))
        case .dictionary(let entries): .object(entries.mapValues(json(from:)))
        case .enumCase(let value): .string(value.rawValue)
        case .entity(let entity):
            .object([
                "type": .string(entity.typeName), "id": .string(entity.identifier), "title": .string(entity.title),
                "subtitle": entity.subtitle.map(JSONValue.string) ?? .null,
                "properties": .object(entity.properties.mapValues(json(from:)))
            ])
        }
    }

    // MARK: From JSON

    /// The value of JSON, converted to a declared type (`nil`: converted by its JSON shape).
    func value(from json: JSONValue, type: String?) -> IntentValue {
        guard let type else { return untyped(json) }
        return value(from: json, declared: DeclaredType(type))
    }

    private func value(from json: JSONValue, declared: DeclaredType) -> IntentValue {
        if json == .null { return .null }
        switch declared {
        case .optional(let wrapped): return value(from: json, declared: wrapped)
        case .list(let element):
            guard case .array(let elements) = json else { return value(from: json, declared: element) }
            return .list(elements.map { value(from: $0, declared: element) })
        case .dictionary(let element):
            guard case .object(let members) = json else { return untyped(json) }
            return .dictionary(members.mapValues { value(from: $0, declared: element) })
        case .named(let name):
            return value(from: json, named: name)
        }
    }

    private func value(from json: JSONValue, named name: String) -> IntentValue {
        switch (name, json) {
        case ("String", .string), ("UUID", .string), ("Bool", .bool), ("Int", .int), ("Double", .double): return untyped(json)
        case ("Double", .int(let number)): return .double(Double(number))
        case ("Int", .double): return json.intValue.map(IntentValue.int) ?? untyped(json)
        case ("Date", .string(let text)): return DateText.parse(text).map(IntentValue.date) ?? .string(text)
        case ("URL", .string(let text)): return URL(string: text).map(IntentValue.url) ?? .string(text)
        case ("File", .string(let path)): return .file(IntentFile(fileURL: URL(fileURLWithPath: path)))
        default: break
        }
        if let enumeration = enums[Self.shortName(name, app: app.name)], let raw = Self.rawText(json) {
            let title = enumeration.cases.first { $0.value == raw }?.title ?? raw
            return .enumCase(EnumCaseValue(typeName: Self.shortName(name, app: app.name), rawValue: raw, title: title))
        }
        if entities[Self.shortName(name, app: app.name)] != nil, let entity = entityValue(from: json, entity: name) {
            return .entity(entity)
        }
        return untyped(json)
    }

    /// An entity from its JSON object, its properties converted by their declared types.
    func entityValue(from json: JSONValue, entity name: String) -> EntityValue? {
        guard case .object(let members) = json, let identifier = members["id"].flatMap(Self.rawText) else { return nil }
        let shortName = Self.shortName(members["type"]?.stringValue ?? name, app: app.name)
        let declaration = entities[shortName] ?? entities[Self.shortName(name, app: app.name)]
        var properties: [String: IntentValue] = [:]
        for (key, value) in members["properties"]?.objectValue ?? [:] {
            let type = declaration?.properties.first { $0.name == key }?.type
            properties[key] = self.value(from: value, type: type)
        }
        return EntityValue(
            typeName: shortName, identifier: identifier, title: members["title"].flatMap(Self.rawText) ?? identifier,
            subtitle: members["subtitle"]?.stringValue, properties: properties)
    }

    /// The value of JSON by its shape alone: numbers stay numbers, objects become dictionaries.
    func untyped(_ json: JSONValue) -> IntentValue {
        switch json {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .array(let elements): .list(elements.map(untyped))
        case .object(let members): .dictionary(members.mapValues(untyped))
        }
    }

    private static func rawText(_ json: JSONValue) -> String? {
        switch json {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        default: nil
        }
    }

    /// The engine's type for a question's `type`: basic types by name, others as text.
    static func questionType(_ text: String?) -> IntentValueType {
        switch DeclaredType(text ?? "String") {
        case .named("Int"): .int
        case .named("Double"): .double
        case .named("Bool"): .bool
        case .named("Date"): .date
        case .named("URL"): .url
        case .named("File"): .file
        case .list(.named("String")): .list(.string)
        case .list(.named("Int")): .list(.int)
        default: .string
        }
    }
}
