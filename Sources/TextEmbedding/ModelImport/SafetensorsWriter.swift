import Foundation

/// Writes float32 tensors in the safetensors format: an 8-byte little-endian header length, a
/// JSON header of names, dtypes, shapes and data offsets, then the data, each tensor's offset a
/// multiple of 8 bytes so that a reader can map the file without copying.
///
/// ```swift
/// var writer = SafetensorsWriter()
/// writer.add("embeddings.LayerNorm.weight", shape: [384]) { [Float](repeating: 1, count: 384) }
/// try writer.write(to: folder.appendingPathComponent("model.safetensors"))
/// ```
struct SafetensorsWriter {
    private var tensors: [(name: String, shape: [Int], values: () throws -> [Float])] = []

    /// Adds a tensor whose values are computed when the file is written.
    mutating func add(_ name: String, shape: [Int], values: @escaping () throws -> [Float]) {
        tensors.append((name, shape, values))
    }

    /// Writes the file, one tensor at a time.
    func write(to url: URL) throws {
        var entries: [String] = []
        var offset = 0
        for tensor in tensors {
            let size = tensor.shape.reduce(1, *) * 4
            let shape = tensor.shape.map(String.init).joined(separator: ",")
            entries.append("\"\(tensor.name)\":{\"dtype\":\"F32\",\"shape\":[\(shape)],\"data_offsets\":[\(offset),\(offset + size)]}")
            offset += size
        }
        var header = Array(("{\"__metadata__\":{\"format\":\"pt\"}," + entries.joined(separator: ",") + "}").utf8)
        while (8 + header.count) % 8 != 0 { header.append(0x20) }
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var length = UInt64(header.count).littleEndian
        try handle.write(contentsOf: Data(bytes: &length, count: 8) + Data(header))
        for tensor in tensors {
            let values = try tensor.values()
            precondition(values.count == tensor.shape.reduce(1, *), "tensor \(tensor.name) has the wrong number of values")
            try values.withUnsafeBytes { try handle.write(contentsOf: $0) }
        }
    }
}
