import Foundation
import Testing

@testable import IntentKit

/// An intent whose `init()` replaces a declared wrapper, so the wrappers it creates do not
/// line up with its properties.
struct ReassignsAParameter: AppIntent {
    static let title: LocalizedStringResource = "Reassigns"
    @Parameter(title: "First") var first: String
    @Parameter(title: "Second") var second: String

    init() {
        _second = IntentParameter(title: "Second", default: "given in init")
    }

    func perform() async throws -> some IntentResult & ReturnsValue<String> {
        .result(value: first + "/" + second)
    }
}

struct ReflectionTests {
    @Test func freshInstancesNameTheirParametersWithoutMirror() {
        let (intent, parameters) = IntentReflection.instantiate(Everything.self)
        #expect(parameters.map(\.name) == IntentReflection.parameters(of: intent).map(\.name))
        #expect(parameters.first?.name == "text")
        let mirrored = Set(IntentReflection.parameters(of: intent).map(\.wrapper.storageIdentity))
        #expect(Set(parameters.map(\.wrapper.storageIdentity)) == mirrored)
    }

    @Test func anInitThatMakesOtherWrappersIsReflectedWithMirror() async throws {
        let (intent, parameters) = IntentReflection.instantiate(ReassignsAParameter.self)
        #expect(parameters.map(\.name) == ["first", "second"])
        let mirrored = IntentReflection.parameters(of: intent).map(\.wrapper.storageIdentity)
        #expect(parameters.map(\.wrapper.storageIdentity) == mirrored)
        let app = IntentApp(name: "Reflection", intents: [ReassignsAParameter.self])
        let outcome = try await IntentPerformer(catalog: IntentCatalog(apps: [app]))
            .perform("Reflection.ReassignsAParameter", arguments: ["first": .string("a")])
        #expect(outcome.value == .string("a/given in init"))
    }

    @Test func entityPropertiesAreReadWhenFirstAskedForInTheLocalizationOfTheirMaking() {
        var strings = StringsCatalog()
        strings.add(["Large": "大"], table: "Localizable", locale: "ja")
        let value = Localization.$current.withValue(Localization(locale: "ja", strings: strings)) {
            Sized(id: "a", size: .large).intentValue
        }
        guard case .entity(let entity) = value else {
            Issue.record("expected an entity")
            return
        }
        #expect(entity.properties["size"] == .enumCase(EnumCaseValue(typeName: "Size", rawValue: "large", title: "大")))
        #expect(entity.properties["name"] == .string("a"))

        var edited = entity
        edited.properties["name"] = .string("b")
        #expect(edited.properties["name"] == .string("b"))
        #expect(entity.properties["name"] == .string("a"))
    }
}

struct Sized: AppEntity {
    var id: String
    @Property(title: "Name") var name: String
    @Property(title: "Size") var size: Size

    init(id: String, size: Size) {
        self.id = id
        self.name = id
        self.size = size
    }

    var displayRepresentation: DisplayRepresentation { "\(name)" }
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Sized"
    static let defaultQuery = SizedQuery()
}

struct SizedQuery: EntityQuery {
    typealias Entity = Sized
    func entities(for identifiers: [String]) async throws -> [Sized] { [] }
}
