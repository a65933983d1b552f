import Foundation
import IntentKit

enum Size: String, AppEnum {
    case small, large
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Size"
    static let caseDisplayRepresentations: [Size: DisplayRepresentation] = [.small: "Small", .large: "Large"]
}

struct Color: AppEntity, ReflectableEntity {
    var id: String
    @Property(title: "Name") var name: String
    @Property(title: "Brightness") var brightness: Int

    init(id: String) { self.id = id }
    init(_ name: String, brightness: Int) {
        id = name.lowercased()
        self.name = name
        self.brightness = brightness
    }

    var displayRepresentation: DisplayRepresentation { "\(name)" }
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Color"
    static let defaultQuery = ColorQuery()
    static let all = [Color("Red", brightness: 40), Color("Rose", brightness: 70), Color("Blue", brightness: 20)]
}

struct ColorQuery: EnumerableEntityQuery {
    typealias Entity = Color
    func allEntities() async throws -> [Color] { Color.all }
}

/// Every parameter type, for conversion tests.
struct Everything: AppIntent {
    static let title: LocalizedStringResource = "Everything"
    @Parameter(title: "Text") var text: String
    @Parameter(title: "Number", default: 1) var number: Int
    @Parameter(title: "Ratio") var ratio: Double?
    @Parameter(title: "Flag") var flag: Bool?
    @Parameter(title: "Day") var day: Date?
    @Parameter(title: "Link") var link: URL?
    @Parameter(title: "Identifier") var identifier: UUID?
    @Parameter(title: "Attachment") var attachment: IntentFile?
    @Parameter(title: "Size") var size: Size?
    @Parameter(title: "Color") var color: Color?
    @Parameter(title: "Tags") var tags: [String]?
    @Parameter(title: "Colors") var colors: [Color]?

    static var parameterSummary: some ParameterSummary {
        When(\.$number, .greaterThan, 1) {
            Summary("Use \(\.$number) of \(\.$text)")
        } otherwise: {
            Switch(\.$size) {
                Case(.large) { Summary("Use a large \(\.$text)") }
                DefaultCase {
                    Summary("Use \(\.$text)") {
                        \.$size
                        \.$color
                    }
                }
            }
        }
    }

    func perform() async throws -> some IntentResult & ReturnsValue<[String: String]> {
        var values: [String: String] = ["text": text, "number": String(number)]
        if let ratio { values["ratio"] = String(ratio) }
        if let flag { values["flag"] = String(flag) }
        if let day { values["day"] = DateText.format(day) }
        if let link { values["link"] = link.absoluteString }
        if let identifier { values["identifier"] = identifier.uuidString }
        if let attachment { values["attachment"] = attachment.filename }
        if let size { values["size"] = size.rawValue }
        if let color { values["color"] = color.name }
        if let tags { values["tags"] = tags.joined(separator: "+") }
        if let colors { values["colors"] = colors.map(\.name).joined(separator: "+") }
        return .result(value: values)
    }
}

/// Asks for a value with `throw $x.requestValue`, then uses the answer.
struct AskTwice: AppIntent {
    static let title: LocalizedStringResource = "Ask"
    @Parameter(title: "Name") var name: String?

    func perform() async throws -> some IntentResult & ProvidesDialog {
        guard let name else { throw $name.requestValue("What is your name?") }
        return .result(dialog: "Hello \(name)")
    }
}

let testApp = IntentApp(name: "Test", intents: [Everything.self, AskTwice.self])
let testCatalog = IntentCatalog(apps: [testApp])
