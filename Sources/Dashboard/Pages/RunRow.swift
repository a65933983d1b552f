import Foundation
import WorkflowKit

/// One run as the runs tables show it, and as live updates send it (its JSON).
///
/// ```swift
/// let row = RunRow(run, times: TimeText(zone: .current))
/// row.href   // "/runs/1f3a2c9e-…"
/// ```
struct RunRow: Sendable, Encodable {
    var id: String
    var shortID: String
    var href: String
    /// The workflow file as recorded (`Workflows/report.yaml`).
    var workflow: String
    /// The file's name alone (`report.yaml`), which the overview's automation rows are keyed by.
    var workflowFile: String
    /// `name:`, when the run recorded one.
    var name: String?
    /// What a person reads: the name, else the file.
    var displayName: String
    var status: String
    var trigger: String
    var started: String
    var startedISO: String
    var duration: String
    var isRunning: Bool

    init(_ run: RunHistory.Run, times: TimeText) {
        id = run.id
        shortID = String(run.id.prefix(8))
        href = "/runs/" + (run.id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? run.id)
        workflow = run.workflow
        workflowFile = URL(fileURLWithPath: run.workflow).lastPathComponent
        name = run.name
        displayName = run.name ?? run.workflow
        status = run.status.rawValue
        trigger = run.trigger
        started = times.shown(run.startedAt)
        startedISO = times.iso(run.startedAt)
        duration = times.duration(from: run.startedAt, to: run.endedAt)
        isRunning = run.status == .running
    }
}

extension RunRow {
    /// An empty row, rendered in a `<template>` that live updates fill in for new runs, so that
    /// their rows have exactly the server's markup.
    static let blank = RunRow(
        id: "", shortID: "", href: "", workflow: "", workflowFile: "", name: nil, displayName: "", status: "", trigger: "", started: "",
        startedISO: "", duration: "", isRunning: false)

    private init(
        id: String, shortID: String, href: String, workflow: String, workflowFile: String, name: String?, displayName: String, status: String,
        trigger: String, started: String, startedISO: String, duration: String, isRunning: Bool
    ) {
        self.id = id
        self.shortID = shortID
        self.href = href
        self.workflow = workflow
        self.workflowFile = workflowFile
        self.name = name
        self.displayName = displayName
        self.status = status
        self.trigger = trigger
        self.started = started
        self.startedISO = startedISO
        self.duration = duration
        self.isRunning = isRunning
    }
}
