import Foundation
import MCP

/// The requests a server answers, by method name, each with the parameters it takes.
///
/// A request for another method is answered `-32601` (method not found), and one whose
/// `params` do not decode as its method's parameters `-32602` (invalid params), both with the
/// request's id, before the request reaches a handler (``IncomingMessage``).
///
/// ```swift
/// let methods = ServedMethods([Initialize.self, Ping.self, ListTools.self, CallTool.self])
/// methods.serves("tools/list")   // true
/// ```
struct ServedMethods: Sendable {
    private let parameterChecks: [String: @Sendable (Data) -> String?]

    /// Serves these methods.
    ///
    /// - Parameter methods: The methods whose handlers the server has.
    init(_ methods: [any Method.Type]) {
        var checks: [String: @Sendable (Data) -> String?] = [:]
        for method in methods where checks[method.name] == nil {
            checks[method.name] = Self.parameterCheck(for: method)
        }
        parameterChecks = checks
    }

    /// Whether requests for a method are answered by a handler.
    func serves(_ method: String) -> Bool {
        parameterChecks[method] != nil
    }

    /// Why a request for a served method carries parameters its handler cannot read.
    ///
    /// - Parameters:
    ///   - message: The request's JSON text.
    ///   - method: Its method.
    /// - Returns: The member that does not fit and why (`params.name: missing`), or `nil` when
    ///   the handler can read them.
    func parameterProblem(in message: Data, for method: String) -> String? {
        guard let check = parameterChecks[method] else { return "\(method) is not served" }
        return check(message)
    }

    private static func parameterCheck<M: Method>(for method: M.Type) -> @Sendable (Data) -> String? {
        { message in
            guard (try? JSONDecoder().decode(Request<M>.self, from: message)) == nil else { return nil }
            // The request's own decoding says only "Invalid params field"; its parameters alone say where.
            do {
                _ = try JSONDecoder().decode(ParametersOnly<M>.self, from: message)
                return "params: not \(M.Parameters.self)"
            } catch let error as DecodingError {
                return describe(error)
            } catch {
                return String(describing: error)
            }
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "params" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return path(context.codingPath + [key]) + ": missing"
        case .typeMismatch(let type, let context): return path(context.codingPath) + ": expected \(type)"
        case .valueNotFound(let type, let context): return path(context.codingPath) + ": expected \(type), found null"
        case .dataCorrupted(let context): return path(context.codingPath) + ": " + context.debugDescription
        @unknown default: return String(describing: error)
        }
    }
}

/// A request's `params` alone, decoded to locate what does not fit.
private struct ParametersOnly<M: Method>: Decodable {
    var params: M.Parameters
}
