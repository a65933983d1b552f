#if Web
    import Hummingbird

    /// `/assets/NAME`: the stylesheet and the script, compiled into the binary
    /// (`Resources/Assets`). Nothing else is served from the disk.
    enum Assets {
        static func response(for name: String) throws -> Response {
            guard let text = DashboardResources.files["Assets/" + name] else {
                throw PageError(.notFound, "no asset '\(name)'")
            }
            let type =
                name.hasSuffix(".css")
                ? "text/css; charset=utf-8" : name.hasSuffix(".js") ? "text/javascript; charset=utf-8" : "text/plain; charset=utf-8"
            return Response(
                status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }
#endif
