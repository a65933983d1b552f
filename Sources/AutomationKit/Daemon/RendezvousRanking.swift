import Foundation

/// Which live daemon goes first for a due time: rendezvous (highest random weight) hashing of
/// the automation's key and the due time over the daemons' identifiers.
///
/// Every daemon computes the same order from the same list of live daemons, so each due time
/// has one daemon that claims it at once; the one ranked second tries ``step`` later, the
/// third twice that, and so on. Runs spread evenly over the daemons, and a dead or paused
/// daemon's share is claimed by the next one after a fraction of a second. All daemons still
/// try every due time: the claim's unique key makes one of them win, whatever the ranks say.
///
/// ```swift
/// let ranking = RendezvousRanking(daemons: ["a", "b", "c"])
/// let delay = ranking.delay(for: "reports/daily.yaml", dueTime: 1_767_225_600, daemon: "b")
/// ```
struct RendezvousRanking: Equatable {
    /// How much later each rank tries than the one before it.
    static let step: TimeInterval = 0.15

    /// The live daemons' identifiers, sorted.
    let daemons: [String]

    init(daemons: [String]) {
        self.daemons = Array(Set(daemons)).sorted()
    }

    /// The place of a daemon among the live ones for a due time: 0 for the first. A daemon
    /// missing from the list (it just joined or lost its lease) ranks after all of them.
    func rank(of daemon: String, key: String, dueTime: Int64) -> Int {
        guard daemons.contains(daemon) else { return daemons.count }
        let mine = Self.weight(daemon: daemon, key: key, dueTime: dueTime)
        return daemons.count { other in
            other != daemon && Self.weight(daemon: other, key: key, dueTime: dueTime) > mine
        }
    }

    /// How long after the due time the daemon tries to claim it.
    func delay(for key: String, dueTime: Int64, daemon: String) -> TimeInterval {
        Double(rank(of: daemon, key: key, dueTime: dueTime)) * Self.step
    }

    /// A weight that every process computes alike (Swift's `hashValue` is seeded per process):
    /// 64-bit FNV-1a over the three values, then a finalizer that spreads close inputs.
    static func weight(daemon: String, key: String, dueTime: Int64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        for byte in daemon.utf8 { add(byte) }
        add(0)
        for byte in key.utf8 { add(byte) }
        add(0)
        withUnsafeBytes(of: dueTime.littleEndian) { for byte in $0 { add(byte) } }
        // splitmix64's finalizer.
        hash ^= hash >> 30
        hash &*= 0xbf58_476d_1ce4_e5b9
        hash ^= hash >> 27
        hash &*= 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        return hash
    }
}
