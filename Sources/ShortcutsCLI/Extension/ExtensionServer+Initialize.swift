import Foundation
import IntentKit

extension ExtensionServer {
    /// What `initialize` answers: the version both sides speak and the apps' metadata.
    struct InitializeResult: Encodable, Sendable {
        var protocolVersion: Int
        /// Exactly what `TOOL metadata --locale LOCALE` prints.
        var metadata: AppMetadata
        /// The tool serving: its name and version.
        var `extension`: Tool

        struct Tool: Encodable, Sendable {
            var name: String
            var version: String
        }
    }

    /// `initialize`: picks the highest version both sides speak and describes the apps in the
    /// locale asked for, which becomes the default of later requests.
    ///
    /// - Throws: -32002 with `data.supported` when no version is common.
    func initialize(_ params: ProtocolParams) throws -> InitializeResult {
        var offered: [Int] = []
        for (index, version) in try params.list("protocolVersions", required: true).enumerated() {
            guard case .int(let number) = version else {
                throw ProtocolError.invalidParams(field: "protocolVersions[\(index)]", "protocol versions are whole numbers")
            }
            offered.append(number)
        }
        guard let version = Set(offered).intersection(Self.protocolVersions).max() else {
            throw ProtocolError(
                code: ProtocolError.unsupportedVersionCode,
                message:
                    "no common protocol version: the engine offers \(offered.map(String.init)), this extension speaks \(Self.protocolVersions.map(String.init))",
                data: ["supported": .list(Self.protocolVersions.map(IntentValue.int))])
        }
        let locale = try params.optionalString("locale") ?? "en"
        setSessionLocale(locale)
        let metadata = Localization.$current.withValue(Localization(locale: locale, strings: catalog.mergedStrings)) {
            AppMetadata(catalog: catalog)
        }
        return InitializeResult(protocolVersion: version, metadata: metadata, extension: .init(name: toolName, version: toolVersion))
    }
}
