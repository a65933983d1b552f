import Foundation

/// The next due time of every scheduled automation, earliest first: a binary min-heap, so the
/// daemon finds what to wake up for in O(1) and reschedules in O(log n).
///
/// Entries are never removed from the middle: when an automation is edited or deleted its
/// generation changes, and entries of an older generation are dropped when they surface.
///
/// ```swift
/// var queue = DueQueue()
/// queue.insert(DueQueue.Entry(date: nine, key: "/srv/Workflows/report.yaml", generation: 1))
/// while let first = queue.first, first.date <= .now { queue.removeFirst() }
/// ```
struct DueQueue {
    struct Entry {
        /// When to wake up for it: the due time, or later for a due time that another daemon
        /// ranks first for (see ``RendezvousRanking``).
        var date: Date
        var key: String
        var generation: Int
        /// The due time.
        var due: Date
        /// Whether ``date`` is already the due time plus this daemon's delay.
        var isDelayed = false

        init(date: Date, key: String, generation: Int, due: Date? = nil, isDelayed: Bool = false) {
            self.date = date
            self.key = key
            self.generation = generation
            self.due = due ?? date
            self.isDelayed = isDelayed
        }
    }

    private var heap: [Entry] = []

    var first: Entry? { heap.first }

    mutating func insert(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].date < heap[parent].date else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    mutating func removeFirst() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].date < heap[smallest].date { smallest = left }
            if right < heap.count, heap[right].date < heap[smallest].date { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
