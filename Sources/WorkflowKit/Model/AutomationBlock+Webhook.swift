import Foundation

extension AutomationBlock {
    /// `webhook:`: the workflow runs when the web server receives a request to `/hooks/NAME`.
    ///
    /// Written as the name alone, or as a mapping:
    ///
    /// ```yaml
    /// webhook: deploy
    /// webhook: { name: deploy, secret: DEPLOY_HOOK, rate: 10/s }
    /// ```
    ///
    /// The name is a URL path segment: lowercase letters, digits, `-` and `_`, starting with a
    /// letter or a digit, unique among the workflows of a folder. The secret names a secret of
    /// `shortcuts secrets`, which authenticates the requests.
    ///
    /// ```swift
    /// if let webhook = workflow.automation?.webhook {
    ///     print("/hooks/\(webhook.name.value) checked with \(webhook.secret), at most \(webhook.rate)")
    /// }
    /// ```
    public struct Webhook: Sendable, Hashable {
        /// The name, the last segment of `/hooks/NAME`.
        public var name: Located<String>
        /// `secret:` as written, or `nil` for the default name (``defaultSecretName(for:)``).
        public var secretName: Located<String>?
        /// How many requests are accepted; `10/s` by default.
        public var rate: Rate
        /// Where `webhook:` is written.
        public var location: SourceLocation

        /// The name of the secret that authenticates requests: `secret:`, else
        /// `WEBHOOK_` and the name upper-cased with `-` as `_`.
        ///
        /// ```swift
        /// webhook.secret   // "WEBHOOK_DEPLOY_SITE" for `webhook: deploy-site`
        /// ```
        public var secret: String { secretName?.value ?? Self.defaultSecretName(for: name.value) }

        /// The secret a webhook uses when `secret:` is not written.
        ///
        /// ```swift
        /// AutomationBlock.Webhook.defaultSecretName(for: "deploy-site")   // "WEBHOOK_DEPLOY_SITE"
        /// ```
        ///
        /// - Parameter name: The webhook's name.
        /// - Returns: `WEBHOOK_` and the name upper-cased, with `-` as `_`.
        public static func defaultSecretName(for name: String) -> String {
            "WEBHOOK_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
        }

        /// Whether a text is a valid webhook name: `[a-z0-9][a-z0-9_-]*`, at most 100 characters.
        ///
        /// ```swift
        /// AutomationBlock.Webhook.isValidName("deploy-site")   // true
        /// AutomationBlock.Webhook.isValidName("Deploy Site")   // false
        /// ```
        ///
        /// - Parameter name: The text.
        /// - Returns: Whether it can name a webhook.
        public static func isValidName(_ name: String) -> Bool {
            guard let first = name.unicodeScalars.first, isLowercaseLetterOrDigit(first), name.unicodeScalars.count <= 100 else {
                return false
            }
            return name.unicodeScalars.allSatisfy { isLowercaseLetterOrDigit($0) || $0 == "-" || $0 == "_" }
        }

        private static func isLowercaseLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
        }

        /// The valid name nearest to an invalid one, for "did you mean": lower-cased, with
        /// spaces and dots as `-` and other characters left out; `nil` when nothing is left.
        static func suggestedName(for name: String) -> String? {
            var scalars: [Unicode.Scalar] = []
            for scalar in name.lowercased().unicodeScalars {
                if isLowercaseLetterOrDigit(scalar) || scalar == "_" || scalar == "-" {
                    scalars.append(scalar)
                } else if scalar == " " || scalar == "." || scalar == "/" {
                    scalars.append("-")
                }
            }
            let suggestion = String(String.UnicodeScalarView(scalars.drop { !isLowercaseLetterOrDigit($0) }))
            return isValidName(suggestion) ? suggestion : nil
        }
    }

    /// A request rate: at most ``count`` requests per ``unit``, in bursts of up to ``count``;
    /// written `10/s`, `100/m` or `1000/h`.
    ///
    /// ```swift
    /// let rate = AutomationBlock.Rate(parsing: "10/s")   // 10 requests a second
    /// print(rate?.interval)                              // 1 second
    /// ```
    public struct Rate: Sendable, Hashable, CustomStringConvertible {
        /// The unit of time of a rate.
        public enum Unit: String, Sendable, Hashable, CaseIterable {
            /// Per second, written `s`.
            case second = "s"
            /// Per minute, written `m`.
            case minute = "m"
            /// Per hour, written `h`.
            case hour = "h"
        }

        /// The most requests per ``unit``, and the largest burst; at least 1.
        public var count: Int
        /// The unit of time.
        public var unit: Unit

        /// The default rate of a webhook: 10 requests a second.
        public static let webhookDefault = Rate(count: 10, unit: .second)

        /// Creates a rate.
        ///
        /// - Parameters:
        ///   - count: The most requests per unit, at least 1.
        ///   - unit: The unit of time.
        public init(count: Int, unit: Unit) {
            self.count = max(1, count)
            self.unit = unit
        }

        /// Reads a rate written `N/s`, `N/m` or `N/h`, with `N` from 1 to 1,000,000.
        ///
        /// ```swift
        /// AutomationBlock.Rate(parsing: "100/m")   // 100 a minute
        /// AutomationBlock.Rate(parsing: "10/x")    // nil
        /// ```
        ///
        /// - Parameter text: The rate as written.
        public init?(parsing text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let unit = Unit(rawValue: String(parts[1]).trimmingCharacters(in: .whitespaces)) else { return nil }
            let number = parts[0].trimmingCharacters(in: .whitespaces)
            guard !number.isEmpty, number.count <= 7, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber),
                let count = Int(number), (1...1_000_000).contains(count)
            else { return nil }
            self.init(count: count, unit: unit)
        }

        /// The unit as a duration: 1 second, 1 minute or 1 hour.
        public var interval: Duration {
            switch unit {
            case .second: .seconds(1)
            case .minute: .seconds(60)
            case .hour: .seconds(3600)
            }
        }

        /// The rate as written: `10/s`.
        public var description: String { "\(count)/\(unit.rawValue)" }
    }
}
