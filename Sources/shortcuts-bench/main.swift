import Foundation

// Benchmarks, run in release builds; each prints its figures and their ratio to a baseline
// measured in the same run:
//   swift run -c release shortcuts-bench cron [calls]
//   swift run -c release shortcuts-bench workflows [iterations] [repeat] [find] [validate] [while] [parallel] [expressions]
//   swift run -c release shortcuts-bench daemon [seconds] [automations] [every-second automations] [idle seconds]
//   swift run -c release --traits PostgreSQL shortcuts-bench daemons-pg [seconds] [every-second automations]
//   swift run -c release shortcuts-bench shell [calls]
//   swift run -c release shortcuts-bench web [requests]
//   swift run -c release shortcuts-bench extensions [calls]
//   swift run -c release shortcuts-bench embeddings [model folder] [seconds]
//   swift run -c release shortcuts-bench metrics [steps] [runs]
//   swift run -c release --traits Web shortcuts-bench webhooks [requests] [rate] [seconds]
let benchmarkArguments = Array(CommandLine.arguments.dropFirst())
switch benchmarkArguments.first {
case "cron":
    CronBenchmark.run(arguments: Array(benchmarkArguments.dropFirst()))
case "workflows":
    try await WorkflowBenchmark.run(arguments: Array(benchmarkArguments.dropFirst()))
case "daemon":
    try await DaemonBenchmark.run(arguments: Array(benchmarkArguments.dropFirst()))
case "daemons-pg":
    try await MultiDaemonBenchmark.run(arguments: Array(benchmarkArguments.dropFirst()))
case "shell":
    try await ShellBenchmark.run(arguments: Array(benchmarkArguments.dropFirst()))
case "web":
    try await WebBenchmark.run(arguments: Array(benchmarkArguments.dropFirst()))
case "extensions":
    try await ExtensionBenchmark.run(arguments: Array(benchmarkArguments.dropFirst()))
case "embeddings":
    try EmbeddingBenchmark.run(arguments: Array(benchmarkArguments.dropFirst()))
case "metrics":
    try await MetricsBenchmark.run(arguments: Array(benchmarkArguments.dropFirst()))
case "webhooks":
    try await WebhookBenchmark.run(arguments: Array(benchmarkArguments.dropFirst()))
default:
    print(
        "usage: shortcuts-bench cron [calls] | workflows [iterations] [repeat] [find] [validate] [while] [parallel] [expressions] | daemon [seconds] [automations] [every-second] [idle seconds] | daemons-pg [seconds] [automations] | shell [calls] | web [requests] | extensions [calls] | embeddings [model folder] [seconds] | metrics [steps] [runs] | webhooks [requests] [rate] [seconds]"
    )
    exit(64)
}
