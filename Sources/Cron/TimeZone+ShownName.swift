import Foundation

extension TimeZone {
    /// The names of the zone that is always at offset zero, which Foundation calls "GMT".
    private static let universalNames: Set<String> = [
        "GMT", "UTC", "UCT", "Universal", "Zulu", "Greenwich", "GMT0", "GMT+0", "GMT-0",
        "Etc/GMT", "Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "Etc/Greenwich", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0"
    ]

    /// The zone's name as the command line shows it: its identifier, except "UTC" for the
    /// zero-offset zone, which Foundation names "GMT" (`TimeZone(identifier: "UTC")?.identifier`
    /// is "GMT"). Zones that are at offset zero only part of the year, such as Europe/London,
    /// keep their name.
    ///
    /// ```swift
    /// TimeZone.gmt.shownName                                  // "UTC"
    /// TimeZone(identifier: "Europe/London")!.shownName        // "Europe/London"
    /// ```
    package var shownName: String {
        Self.universalNames.contains(identifier) && secondsFromGMT() == 0 ? "UTC" : identifier
    }
}
