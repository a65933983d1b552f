import Foundation

/// A workflows folder of many every-second automations whose runs leave countable side effects,
/// and the folder where those side effects land.
///
/// Each run of automation `tick-007` writes a new file `effects/tick-007/<machine>-<time>-<tag>.txt`
/// (`mode: new`, so two runs never share a file), where `<machine>` is the `MACHINE` variable of
/// the daemon that ran it, `<time>` the moment it ran, to the millisecond, and `<tag>` a random
/// number (runs of a catch-up follow one another within a millisecond). Counting an
/// automation's files counts the runs that really happened, whatever the database says.
///
/// ```swift
/// let farm = try AutomationFarm(count: 200)
/// let copy = try farm.deploy(to: machineHome)   // the same folder, as each machine deploys it
/// let files = try farm.effects(of: "tick-007")  // one per run
/// ```
struct AutomationFarm {
    /// How the automations behave.
    struct Behaviour {
        /// `overlap:` of every automation.
        var overlap = "parallel"
        /// `catchUp:` of every automation.
        var catchUp = "all"
        /// How long each run waits before it writes its file (none by default).
        var runTime: Duration?
    }

    /// The folder holding `workflows/` and `effects/`.
    let root: URL
    /// The names of the automations' files without `.yaml` (`tick-001`, …), in order.
    let names: [String]

    var workflows: URL { root.appendingPathComponent("workflows") }
    var effectsFolder: URL { root.appendingPathComponent("effects") }

    /// Writes `count` automation files, each due every second.
    ///
    /// - Parameters:
    ///   - count: How many automations.
    ///   - behaviour: Their overlap and catch-up policies and how long a run takes.
    init(count: Int, behaviour: Behaviour = Behaviour()) throws {
        root = try TemporaryFolder.make(prefix: "shortcuts-farm")
        names = (1...count).map { String(format: "tick-%03d", $0) }
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.createDirectory(at: effectsFolder.appendingPathComponent(name), withIntermediateDirectories: true)
            try Self.workflow(name, behaviour).write(to: workflows.appendingPathComponent("\(name).yaml"), atomically: true, encoding: .utf8)
        }
    }

    private static func workflow(_ name: String, _ behaviour: Behaviour) -> String {
        let wait = behaviour.runTime.map { "  - wait: \(Int($0 / .milliseconds(1)))ms\n" } ?? ""
        return """
            name: \(name)
            automation:
              schedule: "* * * * * *"
              overlap: \(behaviour.overlap)
              catchUp: \(behaviour.catchUp)
            steps:
            \(wait)  - perform: Dates.Format
                id: stamp
                with: { date: "${now}", pattern: "HHmmss.SSS", timeZone: UTC }
              - perform: Math.RandomNumber
                id: tag
                with: { minimum: 0, maximum: 999999999 }
              - perform: Files.WriteFile
                with: { path: "${env.EFFECTS}/\(name)/${env.MACHINE}-${stamp}-${tag}.txt", content: "\(name)", mode: new }

            """
    }

    /// Copies the workflows folder to `home/workflows`, as each machine deploys the same folder.
    ///
    /// - Parameter home: The machine's folder.
    /// - Returns: The copy.
    func deploy(to home: URL) throws -> URL {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let copy = home.appendingPathComponent("workflows")
        try FileManager.default.copyItem(at: workflows, to: copy)
        return copy
    }

    /// One side effect of a run: which machine ran it and when.
    struct Effect: Hashable {
        var machine: String
        var file: String
    }

    /// The files the runs of one automation wrote.
    func effects(of name: String) throws -> [Effect] {
        try FileManager.default.contentsOfDirectory(atPath: effectsFolder.appendingPathComponent(name).path)
            .filter { !$0.hasPrefix(".") }
            .map { Effect(machine: String($0.prefix { $0 != "-" }), file: $0) }
    }

    /// The number of files each automation's runs wrote, by name.
    func effectCounts() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for name in names { counts[name] = try effects(of: name).count }
        return counts
    }

    /// Removes the folder.
    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
