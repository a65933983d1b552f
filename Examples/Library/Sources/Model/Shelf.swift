import IntentKit

/// The shelves of the library: what is being read, what is wanted, what was read.
public enum Shelf: String, Sendable, Codable {
    case currentlyReading
    case wantToRead
    case read
}

extension Shelf: AppEnum {
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Shelf"
    public static let caseDisplayRepresentations: [Shelf: DisplayRepresentation] = [
        .currentlyReading: "Currently Reading",
        .wantToRead: "Want to Read",
        .read: "Read"
    ]
}
