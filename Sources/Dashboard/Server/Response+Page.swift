#if Web
    import Foundation
    import Hummingbird

    extension Response {
        /// An HTML page, never cached (pages show live data).
        static func html(_ text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
            var fields = headers
            fields[.contentType] = "text/html; charset=utf-8"
            fields[.cacheControl] = "no-store"
            return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: text)))
        }

        /// A plain-text answer, for programs (`/metrics`, refusals of `/events`).
        static func text(_ text: String, status: HTTPResponse.Status = .ok, contentType: String = "text/plain; charset=utf-8") -> Response {
            Response(
                status: status, headers: [.contentType: contentType, .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }

        /// A redirect that a browser follows with a GET (after a form was posted).
        static func seeOther(_ location: String) -> Response {
            Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        }
    }
#endif
