import Foundation

/// A stretch of time during which a time zone's UTC offset is constant.
///
/// `start` and `end` are instants (seconds since 1970, UTC); `end` is exclusive.
/// A boundary may be a real offset change or an artificial cut where the offset
/// does not change (then `offsetBefore`/`offsetAfter` equal `offset`).
struct ZoneSegment: Sendable, Equatable {
    var start: Int64
    var end: Int64
    var offset: Int64
    /// Offset in effect just before `start`.
    var offsetBefore: Int64
    /// Offset in effect from `end` on.
    var offsetAfter: Int64
}

/// The offset changes of one time zone within a window of about eight and a
/// half years, gathered once from Foundation and then searched by bisection.
struct ZoneOffsetChunk: Sendable {
    let lowerBound: Int64
    let upperBound: Int64
    /// Instants at which the offset changes, ascending.
    let transitions: [Int64]
    /// `offsets[i]` is in effect before `transitions[i]` (and after `transitions[i - 1]`).
    let offsets: [Int64]

    init(timeZone: TimeZone, lowerBound: Int64, upperBound: Int64) {
        self.lowerBound = lowerBound
        self.upperBound = upperBound
        var transitions: [Int64] = []
        var offsets: [Int64] = [
            Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(lowerBound))))
        ]
        var cursor = Date(timeIntervalSince1970: Double(lowerBound))
        // A generous cap: real zones change offset at most a few times a year.
        for _ in 0..<512 {
            guard let next = timeZone.nextDaylightSavingTimeTransition(after: cursor),
                next > cursor,
                next.timeIntervalSince1970 < Double(upperBound)
            else { break }
            let instant = Int64(next.timeIntervalSince1970.rounded(.up))
            let offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
            if offset != offsets[offsets.count - 1] {
                transitions.append(instant)
                offsets.append(offset)
            }
            cursor = next
        }
        self.transitions = transitions
        self.offsets = offsets
    }

    /// The segment containing `instant`, which must lie inside the chunk.
    func segment(containing instant: Int64) -> ZoneSegment {
        // Number of transitions at or before `instant`.
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= instant {
                low = middle + 1
            } else {
                high = middle
            }
        }
        let index = low
        let offset = offsets[index]
        let start = index > 0 ? transitions[index - 1] : lowerBound
        let offsetBefore = index > 0 ? offsets[index - 1] : offset
        let end = index < transitions.count ? transitions[index] : upperBound
        let offsetAfter = index < transitions.count ? offsets[index + 1] : offset
        return ZoneSegment(
            start: start, end: end, offset: offset,
            offsetBefore: offsetBefore, offsetAfter: offsetAfter)
    }
}

/// Process-wide cache of ``ZoneOffsetChunk`` values keyed by time zone
/// identifier and window, so that finding the UTC offset around an instant
/// costs a dictionary lookup and a short bisection instead of Foundation calls.
final class ZoneOffsetTimeline: @unchecked Sendable {
    static let shared = ZoneOffsetTimeline()

    private struct ChunkKey: Hashable {
        let identifier: String
        let index: Int64
    }

    /// Each chunk covers 2^28 seconds (about 8.5 years)…
    private static let chunkShift: Int64 = 28
    /// …plus this margin on both sides, so that a transition just outside the
    /// window is still seen by instants near its edge.
    private static let margin: Int64 = 8 * 86_400
    private static let maximumCachedChunks = 4_096

    private let lock = NSLock()
    private var chunks: [ChunkKey: ZoneOffsetChunk] = [:]

    /// The constant-offset segment of `timeZone` that contains `instant`.
    func segment(containing instant: Int64, in timeZone: TimeZone) -> ZoneSegment {
        let index = instant >> Self.chunkShift
        let key = ChunkKey(identifier: timeZone.identifier, index: index)
        lock.lock()
        let cached = chunks[key]
        lock.unlock()
        if let cached {
            return cached.segment(containing: instant)
        }
        let chunkStart = index << Self.chunkShift
        let chunk = ZoneOffsetChunk(
            timeZone: timeZone,
            lowerBound: chunkStart - Self.margin,
            upperBound: chunkStart + (1 << Self.chunkShift) + Self.margin)
        lock.lock()
        if chunks.count >= Self.maximumCachedChunks {
            chunks.removeAll(keepingCapacity: true)
        }
        chunks[key] = chunk
        lock.unlock()
        return chunk.segment(containing: instant)
    }
}
