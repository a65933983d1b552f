import BuiltInApps
import IntentKit
import Testing

/// Every built-in app speaks Japanese as the Library does: its name, every intent's title and
/// description, every parameter's and property's title, and every enum case.
@Suite struct BuiltInStringsTests {
    @Test(arguments: BuiltInApps.all.map(\.name))
    func everyTitleHasAJapaneseTranslation(appName: String) throws {
        let app = try #require(BuiltInApps.all.first { $0.name == appName })
        var keys = ["CFBundleDisplayName"]
        for intent in app.intents {
            keys.append(intent.title.key)
            if let description = intent.description { keys.append(description.text.key) }
            keys += IntentIntrospection.parameters(of: intent).map(\.title.key)
        }
        for entity in app.entities {
            keys.append(entity.typeDisplayRepresentation.name.key)
            keys += IntentIntrospection.properties(of: entity).map(\.title.key)
        }
        for enumeration in app.enums {
            keys.append(enumeration.typeDisplayRepresentation.name.key)
            keys += caseTitleKeys(of: enumeration)
        }
        let missing = Set(keys).filter { app.strings.lookUp($0, table: nil, locale: "ja") == nil }.sorted()
        #expect(missing.isEmpty, "add to Sources/BuiltInApps/Resources/ja.lproj/\(appName).strings: \(missing)")
    }

    private func caseTitleKeys<Enumeration: AppEnum>(of type: Enumeration.Type) -> [String] {
        Enumeration.caseDisplayRepresentations.values.map(\.title.key)
    }

    @Test func appNamesAreUniqueAndIntentNamesDoNotCollide() {
        let names = BuiltInApps.all.map(\.name)
        #expect(Set(names).count == names.count)
        let intents = BuiltInApps.all.flatMap { app in app.intents.map { String(describing: $0) } }
        #expect(Set(intents).count == intents.count, "an intent's bare name should find one intent")
    }
}
