import Foundation
import Synchronization

/// A uniform type identifier together with the types it conforms to.
///
/// Content types form a tree: `public.jpeg` conforms to `public.image`, which
/// conforms to `public.data` and `public.content`, which conform to
/// `public.item`. The index stores the whole tree of every item, so a query on
/// `contentType == "public.image"` finds JPEG, PNG and HEIC items alike.
///
/// ```swift
/// let set = SearchableItemAttributeSet(contentType: .jpeg)
/// print(ContentType.jpeg.tree) // ["public.jpeg", "public.image", "public.data", "public.content", "public.item"]
/// ```
public struct ContentType: Hashable, Sendable, CustomStringConvertible {
    /// The identifier, for example `public.plain-text`.
    public let identifier: String

    /// Creates a content type from an identifier.
    ///
    /// Identifiers the library knows (the `public.*` types below and any type
    /// registered with ``register(_:conformingTo:)``) carry their conformance
    /// tree; an unknown identifier conforms only to `public.item`.
    ///
    /// ```swift
    /// let markdown = ContentType("net.daringfireball.markdown")
    /// ```
    ///
    /// - Parameters:
    ///   - identifier: The uniform type identifier.
    public init(_ identifier: String) {
        self.identifier = identifier
    }

    public var description: String { identifier }

    /// The identifiers this type directly conforms to.
    public var parents: [String] {
        ContentTypeRegistry.shared.parents(of: identifier)
    }

    /// This type followed by every type it conforms to, nearest first, without duplicates.
    ///
    /// ```swift
    /// ContentType.plainText.tree // ["public.plain-text", "public.text", "public.data", "public.content", "public.item"]
    /// ```
    public var tree: [String] {
        var result: [String] = []
        var seen: Set<String> = []
        var queue: [String] = [identifier]
        while !queue.isEmpty {
            let next = queue.removeFirst()
            guard seen.insert(next).inserted else { continue }
            result.append(next)
            queue.append(contentsOf: ContentTypeRegistry.shared.parents(of: next))
        }
        if !seen.contains(ContentType.item.identifier) {
            result.append(ContentType.item.identifier)
        }
        return result
    }

    /// Whether this type is the given type or conforms to it.
    ///
    /// ```swift
    /// ContentType.jpeg.conforms(to: .image) // true
    /// ```
    ///
    /// - Parameters:
    ///   - other: The candidate ancestor.
    /// - Returns: `true` when `other` is in this type's ``tree``.
    public func conforms(to other: ContentType) -> Bool {
        tree.contains(other.identifier)
    }

    /// Registers a custom type and the types it conforms to.
    ///
    /// ```swift
    /// ContentType.register(ContentType("com.example.recipe"), conformingTo: [.json, .text])
    /// ```
    ///
    /// - Parameters:
    ///   - type: The new type.
    ///   - parents: The types it directly conforms to.
    public static func register(_ type: ContentType, conformingTo parents: [ContentType]) {
        ContentTypeRegistry.shared.register(type.identifier, parents: parents.map(\.identifier))
    }

    public static let item = ContentType("public.item")
    public static let content = ContentType("public.content")
    public static let compositeContent = ContentType("public.composite-content")
    public static let data = ContentType("public.data")
    public static let text = ContentType("public.text")
    public static let plainText = ContentType("public.plain-text")
    public static let utf8PlainText = ContentType("public.utf8-plain-text")
    public static let rtf = ContentType("public.rtf")
    public static let html = ContentType("public.html")
    public static let xml = ContentType("public.xml")
    public static let json = ContentType("public.json")
    public static let sourceCode = ContentType("public.source-code")
    public static let image = ContentType("public.image")
    public static let jpeg = ContentType("public.jpeg")
    public static let png = ContentType("public.png")
    public static let heic = ContentType("public.heic")
    public static let gif = ContentType("com.compuserve.gif")
    public static let audiovisualContent = ContentType("public.audiovisual-content")
    public static let audio = ContentType("public.audio")
    public static let mp3 = ContentType("public.mp3")
    public static let movie = ContentType("public.movie")
    public static let video = ContentType("public.video")
    public static let mpeg4Movie = ContentType("public.mpeg-4")
    public static let pdf = ContentType("com.adobe.pdf")
    public static let url = ContentType("public.url")
    public static let fileURL = ContentType("public.file-url")
    public static let contact = ContentType("public.contact")
    public static let vCard = ContentType("public.vcard")
    public static let calendarEvent = ContentType("public.calendar-event")
    public static let message = ContentType("public.message")
    public static let emailMessage = ContentType("public.email-message")
    public static let archive = ContentType("public.archive")
    public static let zip = ContentType("public.zip-archive")
    public static let folder = ContentType("public.folder")
    public static let directory = ContentType("public.directory")
}

/// The process-wide table of conformances.
final class ContentTypeRegistry: Sendable {
    static let shared = ContentTypeRegistry()

    private let table: Mutex<[String: [String]]>

    private init() {
        table = Mutex([
            "public.item": [],
            "public.content": ["public.item"],
            "public.composite-content": ["public.content"],
            "public.data": ["public.item"],
            "public.text": ["public.data", "public.content"],
            "public.plain-text": ["public.text"],
            "public.utf8-plain-text": ["public.plain-text"],
            "public.rtf": ["public.text"],
            "public.html": ["public.text"],
            "public.xml": ["public.text"],
            "public.json": ["public.text"],
            "public.source-code": ["public.plain-text"],
            "public.image": ["public.data", "public.content"],
            "public.jpeg": ["public.image"],
            "public.png": ["public.image"],
            "public.heic": ["public.image"],
            "com.compuserve.gif": ["public.image"],
            "public.audiovisual-content": ["public.data", "public.content"],
            "public.audio": ["public.audiovisual-content"],
            "public.mp3": ["public.audio"],
            "public.movie": ["public.audiovisual-content"],
            "public.video": ["public.movie"],
            "public.mpeg-4": ["public.movie"],
            "com.adobe.pdf": ["public.data", "public.composite-content"],
            "public.url": ["public.data"],
            "public.file-url": ["public.url"],
            "public.contact": ["public.item"],
            "public.vcard": ["public.contact", "public.text"],
            "public.calendar-event": ["public.item"],
            "public.message": ["public.item"],
            "public.email-message": ["public.message"],
            "public.archive": ["public.data"],
            "public.zip-archive": ["public.archive"],
            "public.directory": ["public.item"],
            "public.folder": ["public.directory"]
        ])
    }

    func parents(of identifier: String) -> [String] {
        table.withLock { $0[identifier] ?? [] }
    }

    func register(_ identifier: String, parents: [String]) {
        table.withLock { $0[identifier] = parents }
    }
}
