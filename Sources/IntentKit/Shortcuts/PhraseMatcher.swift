import Foundation

/// Finds the App Shortcut a typed phrase names, in English or in the locale's translation of
/// the phrase (strings key: the phrase template, such as `Open ${shelf} in ${applicationName}`).
///
/// Matching ignores case, diacritics, repeated spaces and final punctuation. A parameter
/// placeholder matches an enum case by title or raw value, or an entity through its queries.
///
/// ```swift
/// let match = try await PhraseMatcher(catalog: catalog, localization: localization)
///     .match("Open Want to Read in Library")
/// ```
public struct PhraseMatcher: Sendable {
    /// A phrase that matched.
    public struct Match: Sendable {
        /// The app.
        public var app: IntentApp
        /// The shortcut's intent, with its preset values.
        public var intent: any AppIntent
        /// The phrase's placeholder value, by parameter name.
        public var arguments: [String: IntentValue]
        /// The template that matched.
        public var template: String
    }

    let catalog: IntentCatalog
    let locale: String

    public init(catalog: IntentCatalog, locale: String) {
        self.catalog = catalog
        self.locale = locale
    }

    /// Every phrase of every app, as templates in the locale and in English.
    public func phrases() -> [(app: IntentApp, shortcut: AppShortcut, template: String)] {
        catalog.apps.flatMap { app in
            (app.shortcuts?.appShortcuts ?? []).flatMap { shortcut in
                shortcut.phrases.flatMap { phrase -> [(app: IntentApp, shortcut: AppShortcut, template: String)] in
                    var templates = [phrase.template]
                    if let translated = app.strings.lookUp(phrase.template, table: nil, locale: locale), translated != phrase.template {
                        templates.insert(translated, at: 0)
                    }
                    return templates.map { (app, shortcut, $0) }
                }
            }
        }
    }

    /// Finds the shortcut a phrase names.
    ///
    /// - Parameter phrase: What the person typed.
    /// - Returns: The match, or `nil` when no phrase matches.
    public func match(_ phrase: String) async -> Match? {
        let spoken = Self.normalize(phrase)
        for candidate in phrases() {
            let localization = Localization(locale: locale, strings: candidate.app.strings)
            let appName = candidate.app.displayName(in: localization)
            let parameterName = candidate.shortcut.phrases.first { $0.parameterName != nil }?.parameterName
            var template = candidate.template.replacingOccurrences(of: "${applicationName}", with: appName)
            var parameterValue: String?
            if let parameterName, template.contains("${\(parameterName)}") {
                let parts = template.components(separatedBy: "${\(parameterName)}")
                guard parts.count == 2 else { continue }
                let prefix = Self.normalize(parts[0])
                let suffix = Self.normalize(parts[1])
                let needsPrefix = prefix.isEmpty ? "" : prefix
                guard spoken.hasPrefix(needsPrefix), spoken.hasSuffix(suffix),
                    spoken.count > prefix.count + suffix.count
                else { continue }
                let middle = spoken.dropFirst(prefix.count).dropLast(suffix.count)
                parameterValue = middle.trimmingCharacters(in: .whitespaces)
                template = candidate.template
            } else if Self.normalize(template) != spoken {
                continue
            }
            var arguments: [String: IntentValue] = [:]
            if let parameterName, let parameterValue {
                guard await Self.accepts(parameterValue, parameter: parameterName, of: candidate.shortcut.intent) else { continue }
                arguments[parameterName] = .string(parameterValue)
            }
            return Match(app: candidate.app, intent: candidate.shortcut.intent, arguments: arguments, template: candidate.template)
        }
        return nil
    }

    /// Whether spoken text names a value of the placeholder's parameter: an enum case, or an
    /// entity its queries find (several matches count: the run asks which).
    static func accepts(_ text: String, parameter name: String, of intent: any AppIntent) async -> Bool {
        guard let parameter = IntentReflection.descriptors(for: type(of: intent)).first(where: { $0.name == name }) else {
            return false
        }
        switch parameter.type.nonOptional {
        case .enumeration(let reference):
            return (try? ValueCoercion.coerce(.string(text), to: .enumeration(reference))) != nil
        case .entity(let reference):
            do {
                _ = try await EntityResolver.resolve(.string(text), as: reference, name: name, interaction: NoInteraction())
                return true
            } catch is InteractionError {
                return true
            } catch {
                return false
            }
        default:
            return true
        }
    }

    static func normalize(_ text: String) -> String {
        let folded = ValueComparison.fold(text)
        let words = folded.split(whereSeparator: { $0.isWhitespace })
        var joined = words.joined(separator: " ")
        while let last = joined.last, ".!?。！？".contains(last) { joined.removeLast() }
        return joined
    }
}
