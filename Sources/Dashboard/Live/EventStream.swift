#if Web
    import Hummingbird

    /// `/events`: a `text/event-stream` of the runs that start or end, and of the last day's counts,
    /// while the page listens (see ``RunBroadcaster``). It first says how long to wait before
    /// connecting again, then sends events as they come and a heartbeat comment now and then.
    enum EventStream {
        static func response(for request: Request, site: DashboardSite) -> Response {
            let events = site.broadcaster.subscribe()
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store", .init("X-Accel-Buffering")!: "no"],
                body: .init { writer in
                    try await request.body.consumeWithCancellationOnInboundClose { _ in
                        try await writer.write(ByteBuffer(string: "retry: 2000\n: connected\n\n"))
                        for await event in events {
                            try await writer.write(ByteBuffer(string: event.text))
                        }
                    }
                    try await writer.finish(nil)
                })
        }
    }
#endif
