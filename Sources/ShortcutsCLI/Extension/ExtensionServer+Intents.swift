import Foundation
import IntentKit

extension ExtensionServer {
    /// `intents/perform`: converts the arguments by the parameters' declared types, performs
    /// the intent in the request's locale with the engine as its interaction, and answers what
    /// it produced. An intent the result opens is described, not run: the engine runs it.
    func perform(_ params: ProtocolParams, requestID: IntentValue) async throws -> IntentValue {
        let app = try app(named: params.string("app"))
        let intentName = try params.string("intent")
        guard let type = app.intents.first(where: { Self.names(app.qualifiedName(of: $0), intentName, in: app) }) else {
            let known = app.intents.map { app.qualifiedName(of: $0).dropFirst(app.name.count + 1) }.map(String.init)
            throw ProtocolError.invalidParams(
                field: "intent", "unknown intent '\(intentName)' in app '\(app.name)'" + Self.hint(intentName, among: known))
        }
        let arguments = try params.object("arguments")
        var performer = IntentPerformer(
            catalog: catalog, interaction: EngineInteraction(server: self, requestID: requestID), locale: locale(of: params),
            runsOpenedIntents: false)
        let detailLog = IntentDetailLog()
        performer.detailLog = detailLog
        try await performer.prepare(app)
        let localization = performer.localization(for: app)
        let descriptors = IntentIntrospection.parameters(of: type)
        var converted: [String: IntentValue] = [:]
        for (name, value) in arguments {
            guard let descriptor = descriptors.first(where: { $0.name == name }) else {
                converted[name] = value  // the performer names the unknown parameter
                continue
            }
            converted[name] = try await Localization.$current.withValue(localization) {
                try await ProtocolValues.convert(value, to: descriptor.type, field: "arguments.\(name)")
            }
        }
        let outcome = try await performer.perform(type, in: app, arguments: converted)
        var result: [String: IntentValue] = [
            "value": outcome.value ?? .null,
            "dialog": outcome.dialog.map(IntentValue.string) ?? .null,
            "snippet": outcome.snippet.map(IntentValue.string) ?? .null,
            "opensIntent": .null,
            "details": .dictionary(outcome.details)
        ]
        if let opened = outcome.pendingOpenIntent {
            let openedApp = catalog.app(declaring: Swift.type(of: opened)) ?? app
            let fullName = openedApp.qualifiedName(of: Swift.type(of: opened))
            let name = openedApp.name == app.name ? String(fullName.dropFirst(app.name.count + 1)) : fullName
            let values = Localization.$current.withValue(localization) { IntentIntrospection.values(of: opened) }
            result["opensIntent"] = .dictionary(["intent": .string(name), "arguments": .dictionary(values)])
        }
        return .dictionary(result)
    }

    /// The app a request names.
    func app(named name: String) throws(ProtocolError) -> IntentApp {
        guard let app = catalog.apps.first(where: { $0.name == name }) else {
            throw .invalidParams(field: "app", "unknown app '\(name)'" + Self.hint(name, among: catalog.apps.map(\.name)))
        }
        return app
    }

    /// Whether a name given in a request (`Greet` or `Greeter.Greet`) names a type's full name.
    static func names(_ fullName: String, _ given: String, in app: IntentApp) -> Bool {
        fullName == given || fullName == app.name + "." + given
    }

    static func hint(_ name: String, among candidates: [String]) -> String {
        NameSuggestion.nearest(to: name, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }
}
