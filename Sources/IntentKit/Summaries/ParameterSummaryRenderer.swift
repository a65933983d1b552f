import Foundation

/// A parameter summary with values (or placeholders) in place.
public struct RenderedSummary: Sendable, Hashable {
    /// The sentence, such as `Open Currently Reading` or, without a value, `Open [Shelf]`.
    public var text: String
    /// The sentence with `${name}` for each parameter, such as `Open ${shelf}`.
    public var template: String
    /// The parameters in the sentence, in order.
    public var parameters: [String]
    /// Further parameters listed after the sentence.
    public var moreParameters: [String]
}

/// Renders an intent's `parameterSummary`, following `When` and `Switch` by the intent's values.
///
/// ```swift
/// let intent = OpenShelf()
/// intent.shelf = .read
/// ParameterSummaryRenderer.render(intent).text   // "Open Read"
/// ParameterSummaryRenderer.render(OpenShelf.self).template   // "Open ${shelf}"
/// ```
public enum ParameterSummaryRenderer {
    /// Renders the summary of an intent instance.
    ///
    /// - Parameter intent: The intent, with the values to show.
    /// - Returns: The rendered summary.
    public static func render<Intent: AppIntent>(_ intent: Intent) -> RenderedSummary {
        // The summary builder only accepts summaries of `Intent` itself.
        let node = (Intent.parameterSummary.summaryNode as? SummaryNode<Intent>) ?? .empty
        let parameters = IntentReflection.parameters(of: intent)
        return render(node, intent: intent, parameters: parameters)
    }

    /// Renders the summary of an intent type with its default values.
    ///
    /// - Parameter type: The intent type.
    /// - Returns: The rendered summary.
    public static func render(_ type: any AppIntent.Type) -> RenderedSummary {
        render(type.init())
    }

    private static func render<Intent: AppIntent>(
        _ node: SummaryNode<Intent>, intent: Intent, parameters: [IntentReflection.ReflectedParameter]
    ) -> RenderedSummary {
        switch node {
        case .empty:
            let title = Intent.title.description
            return RenderedSummary(text: title, template: title, parameters: [], moreParameters: parameters.map(\.name))
        case .sentence(let segments, let more):
            var text = ""
            var template = ""
            var names: [String] = []
            for segment in segments {
                switch segment {
                case .text(let words):
                    text += words
                    template += words
                case .parameter(let keyPath):
                    guard let parameter = IntentReflection.parameter(for: keyPath, in: intent) else { continue }
                    names.append(parameter.name)
                    template += "${\(parameter.name)}"
                    if parameter.wrapper.hasValue, let value = parameter.wrapper.currentValue {
                        text += value.displayText
                    } else {
                        text += "[\(parameter.wrapper.title.description)]"
                    }
                }
            }
            let moreNames = more.compactMap { IntentReflection.parameter(for: $0, in: intent)?.name }
            return RenderedSummary(text: text, template: template, parameters: names, moreParameters: moreNames)
        case .condition(let keyPath, let test, _, let then, let otherwise):
            let value = IntentReflection.parameter(for: keyPath, in: intent).flatMap { parameter in
                parameter.wrapper.hasValue ? parameter.wrapper.currentValue : nil
            }
            return render(test(value) ? then : otherwise, intent: intent, parameters: parameters)
        case .choice(let keyPath, let cases, let otherwise):
            let value = IntentReflection.parameter(for: keyPath, in: intent).flatMap { parameter in
                parameter.wrapper.hasValue ? parameter.wrapper.currentValue : nil
            }
            let match = value.flatMap { value in cases.first { ValueComparison.equal(value, $0.value) } }
            return render(match?.node ?? otherwise, intent: intent, parameters: parameters)
        }
    }
}
