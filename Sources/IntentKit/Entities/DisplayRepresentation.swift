/// How a value, an enum case or an entity is shown: a title, an optional subtitle and image.
///
/// ```swift
/// var displayRepresentation: DisplayRepresentation {
///     DisplayRepresentation(title: "\(title)", subtitle: "by \(author)", image: .init(named: "cover"))
/// }
/// var displayRepresentation: DisplayRepresentation { "\(title)" }   // title only
/// ```
public struct DisplayRepresentation: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The title.
    public var title: LocalizedStringResource
    /// The subtitle.
    public var subtitle: LocalizedStringResource?
    /// The image.
    public var image: Image?

    /// Creates a display representation.
    public init(title: LocalizedStringResource, subtitle: LocalizedStringResource? = nil, image: Image? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
    }

    public init(stringLiteral value: String) {
        self.init(title: LocalizedStringResource(value))
    }

    public init(stringInterpolation: LocalizedStringResource.StringInterpolation) {
        self.init(title: LocalizedStringResource(stringInterpolation: stringInterpolation))
    }

    /// An image named in an app's assets or a system symbol; the terminal shows its name.
    public struct Image: Sendable, Hashable {
        /// The image's name.
        public var name: String
        /// Whether it names a system symbol rather than an app asset.
        public var isSystemImage: Bool

        /// An image from the app's assets.
        public init(named name: String) {
            self.name = name
            self.isSystemImage = false
        }

        /// A system symbol.
        public init(systemName: String) {
            self.name = systemName
            self.isSystemImage = true
        }
    }
}

/// The name of a type of value (`"Book"`, `"Shelf"`), shown in pickers and summaries.
///
/// ```swift
/// static var typeDisplayRepresentation: TypeDisplayRepresentation = "Book"
/// ```
public struct TypeDisplayRepresentation: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The type's name.
    public var name: LocalizedStringResource
    /// How a count of values is written, such as `"%lld books"`.
    public var numericFormat: LocalizedStringResource?

    /// Creates a type display representation.
    public init(name: LocalizedStringResource, numericFormat: LocalizedStringResource? = nil) {
        self.name = name
        self.numericFormat = numericFormat
    }

    public init(stringLiteral value: String) {
        self.init(name: LocalizedStringResource(value))
    }

    public init(stringInterpolation: LocalizedStringResource.StringInterpolation) {
        self.init(name: LocalizedStringResource(stringInterpolation: stringInterpolation))
    }
}
