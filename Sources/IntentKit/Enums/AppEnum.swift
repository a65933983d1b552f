import Foundation

/// An enumeration whose cases can be parameter values, shown with localized titles.
///
/// ```swift
/// enum Shelf: String {
///     case currentlyReading, wantToRead, read
/// }
/// extension Shelf: AppEnum {
///     static var typeDisplayRepresentation: TypeDisplayRepresentation = "Shelf"
///     static var caseDisplayRepresentations: [Shelf: DisplayRepresentation] = [
///         .currentlyReading: "Currently Reading", .wantToRead: "Want to Read", .read: "Read",
///     ]
/// }
/// ```
///
/// Text converts to a case by its raw value or its title, ignoring case.
public protocol AppEnum: IntentValueConvertible, RawRepresentable, CaseIterable, Hashable
where RawValue: LosslessStringConvertible {
    /// The enum's name, as pickers and summaries show it.
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
    /// Each case's title.
    static var caseDisplayRepresentations: [Self: DisplayRepresentation] { get }
}

extension AppEnum {
    /// The case's display title.
    public var localizedTitle: LocalizedStringResource {
        Self.caseDisplayRepresentations[self]?.title ?? LocalizedStringResource(String(describing: rawValue))
    }

    public static var intentValueType: IntentValueType { .enumeration(EnumTypeReference(Self.self)) }

    public var intentValue: IntentValue {
        .enumCase(
            EnumCaseValue(
                typeName: String(describing: Self.self), rawValue: String(describing: rawValue),
                title: localizedTitle.description))
    }

    public init(intentValue: IntentValue) throws {
        let text: String
        switch intentValue {
        case .enumCase(let value): text = value.rawValue
        case .string(let value): text = value
        case .int(let value): text = String(value)
        default: throw ValueConversionError(value: intentValue, expectedType: Self.intentValueType)
        }
        guard let match = Self.matchingCase(text) else {
            let names = Self.allCases.map { String(describing: $0.rawValue) }.joined(separator: ", ")
            throw ValueConversionError(value: intentValue, expectedType: Self.intentValueType, hint: "one of \(names)")
        }
        self = match
    }

    /// The case whose raw value or title (in English or the current locale) is `text`,
    /// ignoring case and surrounding spaces.
    static func matchingCase(_ text: String) -> Self? {
        let wanted = text.trimmingCharacters(in: .whitespaces)
        if let exact = allCases.first(where: { String(describing: $0.rawValue) == wanted }) { return exact }
        let folded = wanted.lowercased()
        return allCases.first { candidate in
            String(describing: candidate.rawValue).lowercased() == folded
                || candidate.localizedTitle.key.lowercased() == folded
                || candidate.localizedTitle.description.lowercased() == folded
        }
    }
}
