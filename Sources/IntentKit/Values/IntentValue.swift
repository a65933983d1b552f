import Foundation
import Synchronization

/// A dynamically typed value that flows between intents, entities, workflows and the command line.
///
/// Every parameter and property type converts to and from an `IntentValue`
/// (see ``IntentValueConvertible``), so the engine can read, write, compare and print
/// values without knowing their Swift types.
///
/// ```swift
/// let value: IntentValue = .list([.string("Emma"), .int(1815)])
/// print(value.displayText)   // Emma, 1815
/// ```
public enum IntentValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case date(Date)
    case url(URL)
    case file(IntentFile)
    case list([IntentValue])
    case dictionary([String: IntentValue])
    case enumCase(EnumCaseValue)
    case entity(EntityValue)

    /// The name of the value's kind, as error messages print it.
    ///
    /// ```swift
    /// IntentValue.int(3).kindName   // "Int"
    /// ```
    public var kindName: String {
        switch self {
        case .null: "nothing"
        case .bool: "Bool"
        case .int: "Int"
        case .double: "Double"
        case .string: "String"
        case .date: "Date"
        case .url: "URL"
        case .file: "File"
        case .list: "List"
        case .dictionary: "Dictionary"
        case .enumCase(let value): value.typeName
        case .entity(let value): value.typeName
        }
    }

    /// Whether the value is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// One case of an ``AppEnum``, as a dynamic value.
///
/// ```swift
/// let shelf = EnumCaseValue(typeName: "Shelf", rawValue: "read", title: "Read")
/// ```
public struct EnumCaseValue: Sendable, Hashable {
    /// The enum's Swift type name.
    public var typeName: String
    /// The case's raw value.
    public var rawValue: String
    /// The case's display title in the current locale.
    public var title: String

    /// Creates an enum case value.
    public init(typeName: String, rawValue: String, title: String) {
        self.typeName = typeName
        self.rawValue = rawValue
        self.title = title
    }
}

/// An ``AppEntity`` instance, as a dynamic value: its type, identifier, display representation
/// and `@Property` values, plus the Swift instance itself.
///
/// Two entity values are equal when they have the same type and identifier.
public struct EntityValue: Sendable, Hashable, CustomStringConvertible {
    /// The entity's Swift type name.
    public var typeName: String
    /// The entity's identifier as text (``EntityIdentifierConvertible``).
    public var identifier: String
    /// The display title.
    public var title: String
    /// The display subtitle, if any.
    public var subtitle: String?
    /// The values of the entity's `@Property` wrappers, by Swift property name.
    ///
    /// A value made from an instance reads them from it when they are first asked for, in the
    /// localization that was current when the value was made: a `find` whose results are only
    /// passed on never pays for reflecting them.
    public var properties: [String: IntentValue] {
        get { propertyStorage.values }
        set { propertyStorage = PropertyStorage(values: newValue) }
    }
    /// The Swift instance, when the value was made from one.
    public var instance: (any AppEntity)?

    private var propertyStorage: PropertyStorage

    /// Creates an entity value.
    public init(
        typeName: String, identifier: String, title: String, subtitle: String? = nil,
        properties: [String: IntentValue] = [:], instance: (any AppEntity)? = nil
    ) {
        self.typeName = typeName
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.propertyStorage = PropertyStorage(values: properties)
        self.instance = instance
    }

    /// Creates an entity value whose properties are read from the instance when first needed.
    init(
        typeName: String, identifier: String, title: String, subtitle: String?, instance: some AppEntity,
        readProperties: @escaping @Sendable () -> [String: IntentValue]
    ) {
        self.typeName = typeName
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.propertyStorage = PropertyStorage(read: readProperties)
        self.instance = instance
    }

    /// Property values, given or read once on demand.
    private final class PropertyStorage: Sendable {
        private let known: Mutex<[String: IntentValue]?>
        private let read: (@Sendable () -> [String: IntentValue])?

        init(values: [String: IntentValue]) {
            known = Mutex(values)
            read = nil
        }

        init(read: @escaping @Sendable () -> [String: IntentValue]) {
            known = Mutex(nil)
            self.read = read
        }

        var values: [String: IntentValue] {
            known.withLock { known in
                if let known { return known }
                let values = read?() ?? [:]
                known = values
                return values
            }
        }
    }

    public static func == (lhs: EntityValue, rhs: EntityValue) -> Bool {
        lhs.typeName == rhs.typeName && lhs.identifier == rhs.identifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(typeName)
        hasher.combine(identifier)
    }

    public var description: String { title }
}

/// A file passed to or returned by an intent.
///
/// ```swift
/// let file = IntentFile(fileURL: URL(fileURLWithPath: "/tmp/notes.txt"))
/// ```
public struct IntentFile: Sendable, Hashable {
    /// Where the file is on disk.
    public var fileURL: URL
    /// The file's name.
    public var filename: String

    /// Creates a file value for a file on disk.
    public init(fileURL: URL, filename: String? = nil) {
        self.fileURL = fileURL
        self.filename = filename ?? fileURL.lastPathComponent
    }

    /// Reads the file's contents.
    ///
    /// - Throws: The underlying I/O error when the file cannot be read.
    public var data: Data {
        get throws { try Data(contentsOf: fileURL) }
    }

    /// The properties a workflow reads from a file value, with their types: those of
    /// `Files.FileEntity` that name the file, and its size and modification time read from
    /// the disk when asked (`null` once the file is gone, as after a `deleted` event).
    ///
    /// ```swift
    /// // ${file.name} report.pdf, ${file.extension} pdf, ${file.folder} /home/ada/Inbox
    /// ```
    public static let properties: KeyValuePairs<String, IntentValueType> = [
        "name": .string, "extension": .string, "folder": .string, "path": .string, "filename": .string,
        "size": .optional(.int), "modified": .optional(.date)
    ]

    /// The value of one of ``properties``; `nil` for another name.
    public func property(_ name: String) -> IntentValue? {
        switch name {
        case "name", "filename": return .string(filename)
        case "extension": return .string(fileURL.pathExtension)
        case "folder": return .string(fileURL.deletingLastPathComponent().path)
        case "path": return .string(fileURL.path)
        case "size", "modified":
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: fileURL.path) else { return .null }
            if name == "size" { return (attributes[.size] as? NSNumber).map { .int($0.intValue) } ?? .null }
            return (attributes[.modificationDate] as? Date).map(IntentValue.date) ?? .null
        default: return nil
        }
    }
}
