import Foundation

/// What the engine knows of an intent before running it: a Swift ``AppIntent`` type, or an
/// intent of a hosted app (``IntentApp/init(hosted:host:)``) described by its metadata.
///
/// Validators, the command line and the performer read intents through it, so both kinds are
/// listed, checked and run alike.
///
/// ```swift
/// let found = try catalog.intent(named: "Greeter.Greet")
/// print(found.definition.typeName, found.definition.resultShape)   // Greet ReturnsValue<String>
/// ```
public struct IntentDefinition: Sendable {
    /// A Swift type or a hosted app's description.
    package enum Kind: Sendable {
        case swift(any AppIntent.Type)
        case hosted(HostedIntent)
    }

    /// Where the intent comes from.
    package let kind: Kind

    package init(_ kind: Kind) {
        self.kind = kind
        if case .swift(let type) = kind { self.type = type } else { self.type = nil }
    }

    /// The Swift type, or `nil` for an intent of a hosted app.
    public let type: (any AppIntent.Type)?

    /// The intent's name within its app (`AddBook`).
    public var typeName: String {
        switch kind {
        case .swift(let type): IntentReflection.typeName(of: type)
        case .hosted(let intent): intent.name
        }
    }

    /// The title, in the current localization.
    public var title: String {
        switch kind {
        case .swift(let type): type.title.description
        case .hosted(let intent): intent.metadata.title
        }
    }

    /// The description's text, if any.
    public var descriptionText: String? {
        switch kind {
        case .swift(let type): type.description?.text.description
        case .hosted(let intent): intent.metadata.description
        }
    }

    /// Whether the intent is listed (`isDiscoverable`).
    public var isDiscoverable: Bool {
        switch kind {
        case .swift(let type): type.isDiscoverable
        case .hosted(let intent): intent.metadata.isDiscoverable
        }
    }

    /// Whether running the intent opens its app.
    public var openAppWhenRun: Bool {
        switch kind {
        case .swift(let type): type.openAppWhenRun
        case .hosted(let intent): intent.metadata.openAppWhenRun
        }
    }

    /// The parameter summary with default values: `Open [Shelf]`, and its template `Open ${shelf}`.
    public var summary: RenderedSummary {
        switch kind {
        case .swift(let type):
            return ParameterSummaryRenderer.render(type)
        case .hosted(let intent):
            let template = intent.metadata.summary
            var text = template
            var named: [String] = []
            for parameter in intent.metadata.parameters where template.contains("${\(parameter.name)}") {
                named.append(parameter.name)
                text = text.replacingOccurrences(of: "${\(parameter.name)}", with: "[\(parameter.title)]")
            }
            return RenderedSummary(text: text, template: template, parameters: named, moreParameters: [])
        }
    }

    /// What the intent's results carry.
    public var resultShape: IntentResultShape {
        switch kind {
        case .swift(let type): type.resultShape
        case .hosted(let intent): intent.resultShape
        }
    }

    /// The parameters, in declaration order.
    package var parameters: [ParameterDescriptor] {
        switch kind {
        case .swift(let type): IntentReflection.descriptors(for: type)
        case .hosted(let intent): intent.parameters
        }
    }
}
