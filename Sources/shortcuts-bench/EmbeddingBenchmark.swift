import EmbeddingKernels
import Foundation
import TextEmbedding

/// Measures the Swift embedder on all-MiniLM-L6-v2 against the numpy reference
/// (`Scripts/embedding-reference.py bench`) in the same run: items/s and tokens/s for short texts
/// one at a time (a query) and packed 32 at a time (indexing), for 256-token texts, and the
/// model's load time with and without the vocabulary cache. Rates are per CPU-second of the
/// process (all its threads), which a busy shared machine disturbs far less than wall time.
///
/// The model folder is the argument, or `SHORTCUTS_TEST_MODEL_DIR`.
enum EmbeddingBenchmark {
    static let shortTexts = [
        "Morning run by the river", "Sourdough, third try", "Tide pools at Point Lobos", "Reading on the porch",
        "Windsurfing in Carmel", "jogging before the office", "a novel I finished", "sea creatures on the rocks"
    ]

    static func run(arguments: [String]) throws {
        guard let path = arguments.first ?? ProcessInfo.processInfo.environment["SHORTCUTS_TEST_MODEL_DIR"] else {
            print("embeddings: no model folder: pass one, or set SHORTCUTS_TEST_MODEL_DIR (a folder with all-MiniLM-L6-v2's files)")
            exit(64)
        }
        let source = URL(fileURLWithPath: path, isDirectory: true)
        let seconds = arguments.dropFirst().first.flatMap(Double.init) ?? 2
        let threads = ProcessInfo.processInfo.environment["SHORTCUTS_EMBEDDING_THREADS"] ?? "2"
        print(
            "kernels: \(String(cString: ek_variant())), matrix products: \(ek_has_avx512() != 0 ? "AVX-512" : "AVX2 or baseline"), "
                + "threads: \(threads) (SHORTCUTS_EMBEDDING_THREADS; the numpy reference gets as many BLAS threads), model: \(source.path)")

        // Load time: a fresh folder (tokenizer.json parsed, cache written), then with the cache.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("embedding-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["config.json", "tokenizer.json", "model.safetensors", "sentence_bert_config.json"]
        where FileManager.default.fileExists(atPath: source.appendingPathComponent(name).path) {
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(name), withDestinationURL: source.appendingPathComponent(name))
        }
        let clock = ContinuousClock()
        var began = clock.now
        _ = try TransformerEmbedder(directory: folder, identifier: "bench", similarityFloor: 0.3)
        let coldLoad = milliseconds(clock.now - began)
        var warmLoad = Double.infinity
        var embedder: TransformerEmbedder?
        for _ in 0..<5 {
            began = clock.now
            embedder = try TransformerEmbedder(directory: folder, identifier: "bench", similarityFloor: 0.3)
            warmLoad = min(warmLoad, milliseconds(clock.now - began))
        }
        guard let embedder else { return }
        print(
            String(format: "load: %.1f ms parsing tokenizer.json, %.2f ms with the vocabulary cache (%.0fx)", coldLoad, warmLoad, coldLoad / warmLoad)
        )

        let longText = (0..<500).map {
            ["The", "lighthouse", "keeper", "wrote", "about", "storms,", "gulls", "and", "the", "slow", "turn", "of", "tides."][$0 % 13]
        }
        .joined(separator: " ")
        let tokens = { (texts: [String]) in texts.reduce(0) { $0 + embedder.tokenizer.encode($1, maxTokens: embedder.maxTokens).count } }
        var swift: [String: (items: Double, tokens: Double)] = [:]
        for (label, texts, batch) in [
            ("short, one at a time", shortTexts, 1), ("short, packed 32", Array(repeating: shortTexts, count: 4).flatMap { $0 }, 32),
            ("long (256 tokens), one at a time", [longText], 1)
        ] {
            let perRound = tokens(texts)
            _ = try embedder.embed(Array(texts.prefix(batch)), role: .document)
            var items = 0
            var tokenCount = 0
            let cpuBegan = processTime()
            while processTime() - cpuBegan < seconds {
                for start in stride(from: 0, to: texts.count, by: batch) {
                    _ = try embedder.embed(Array(texts[start..<min(start + batch, texts.count)]), role: .document)
                }
                items += texts.count
                tokenCount += perRound
            }
            let elapsed = processTime() - cpuBegan
            swift[label] = (Double(items) / elapsed, Double(tokenCount) / elapsed)
        }

        let reference = pythonReference(model: source)
        print("per CPU-second (process time, all threads)")
        print("texts                               Swift items/s  tokens/s   numpy items/s  tokens/s   Swift/numpy")
        for label in ["short, one at a time", "short, packed 32", "long (256 tokens), one at a time"] {
            guard let result = swift[label] else { continue }
            let key = label.hasPrefix("long") ? "long" : "short"
            let numpy = reference?[key]
            let numpyText =
                numpy.map { String(format: "%13.1f %9.0f %12.2fx", $0.items, $0.tokens, result.items / $0.items) } ?? "  (numpy reference not run)"
            let padded = label.padding(toLength: 35, withPad: " ", startingAt: 0)
            print(padded + String(format: " %13.1f %9.0f", result.items, result.tokens) + numpyText)
        }
        if reference == nil {
            print("the numpy reference needs python3 with numpy, tokenizers and safetensors (pip install numpy tokenizers safetensors)")
        }
    }

    /// Runs `Scripts/embedding-reference.py bench` and reads its items/s and tokens/s.
    static func pythonReference(model: URL) -> [String: (items: Double, tokens: Double)]? {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/embedding-reference.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "bench", model.path]
        var environment = ProcessInfo.processInfo.environment
        environment["OPENBLAS_NUM_THREADS"] = environment["SHORTCUTS_EMBEDDING_THREADS"] ?? "2"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let object = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Double]] else {
            return nil
        }
        return object.compactMapValues { fields in
            guard let items = fields["itemsPerSecond"], let tokens = fields["tokensPerSecond"] else { return nil }
            return (items, tokens)
        }
    }

    /// The CPU time of the process so far, in seconds: robust to other work on a shared machine.
    static func processTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
