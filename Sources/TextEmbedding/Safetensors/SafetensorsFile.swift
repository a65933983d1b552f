import Foundation

/// A `.safetensors` file, memory-mapped: an 8-byte little-endian header length, a JSON header
/// naming each tensor's dtype, shape and byte range, then the tensors' bytes.
///
/// Opening validates the whole header against the file (sizes, ranges, overlaps, dtypes), so a
/// truncated or inconsistent file fails with a ``ModelLoadingError`` instead of reading past the
/// end. Float32 tensors are used in place, without copying; float16 ones are widened on request.
///
/// ```swift
/// let file = try SafetensorsFile(path: folder + "/model.safetensors")
/// let weight = try file.floats("pooler.dense.weight", shape: [384, 384])
/// ```
struct SafetensorsFile: Sendable {
    /// One tensor's entry in the header.
    struct Entry: Sendable {
        var dtype: String
        var shape: [Int]
        /// The byte range inside the data section.
        var range: Range<Int>
    }

    /// The element types whose size the reader knows.
    static let elementSizes: [String: Int] = [
        "F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1, "BOOL": 1
    ]

    let file: MappedFile
    let entries: [String: Entry]
    /// Where the data section starts in the file.
    let dataOffset: Int

    /// Opens and validates a file.
    ///
    /// - Parameter path: The file's path.
    /// - Throws: ``ModelLoadingError`` when the file is missing, truncated, or its header is wrong.
    init(path: String) throws {
        file = try MappedFile(path: path)
        func invalid(_ problem: String) -> ModelLoadingError { .invalid(path, problem) }
        guard file.count >= 8 else {
            throw invalid("the file is truncated: it has \(file.count) bytes, fewer than the 8 of a safetensors header length")
        }
        let headerLength = Int(file.bytes(at: 0, count: 8).loadUnaligned(as: UInt64.self).littleEndian & 0x7FFF_FFFF_FFFF_FFFF)
        guard headerLength <= 100_000_000 else {
            throw invalid("this is not a safetensors file: its header length \(headerLength) is implausibly large")
        }
        guard 8 + headerLength <= file.count else {
            throw invalid("the file is truncated: its header is \(headerLength) bytes long but the file has \(file.count) bytes")
        }
        dataOffset = 8 + headerLength
        let header = Data(file.bytes(at: 8, count: headerLength))
        guard let object = try? JSONSerialization.jsonObject(with: header), let tensors = object as? [String: Any] else {
            throw invalid("this is not a safetensors file: its header is not a JSON object")
        }
        let dataCount = file.count - dataOffset
        var entries: [String: Entry] = [:]
        for (name, value) in tensors where name != "__metadata__" {
            guard let fields = value as? [String: Any], let dtype = fields["dtype"] as? String,
                let shape = fields["shape"] as? [Int], let offsets = fields["data_offsets"] as? [Int], offsets.count == 2
            else {
                throw invalid("the header's entry for tensor '\(name)' lacks a dtype, shape or data_offsets")
            }
            guard let elementSize = Self.elementSizes[dtype] else {
                throw invalid("tensor '\(name)' has the unknown dtype '\(dtype)'")
            }
            let elements = shape.reduce(1) { $0.multipliedReportingOverflow(by: $1).partialValue }
            guard shape.allSatisfy({ $0 >= 0 }), offsets[0] >= 0, offsets[0] <= offsets[1],
                offsets[1] - offsets[0] == elements * elementSize
            else {
                throw invalid(
                    "the header lies about tensor '\(name)': shape \(shape) of \(dtype) needs \(elements * elementSize) bytes "
                        + "but its data_offsets \(offsets) span \(offsets[1] - offsets[0])")
            }
            guard offsets[1] <= dataCount else {
                throw invalid(
                    "the file is truncated: tensor '\(name)' ends at byte \(dataOffset + offsets[1]) but the file has \(file.count) bytes"
                )
            }
            entries[name] = Entry(dtype: dtype, shape: shape, range: offsets[0]..<offsets[1])
        }
        let ordered = entries.sorted { $0.value.range.lowerBound < $1.value.range.lowerBound }
        for (first, second) in zip(ordered, ordered.dropFirst()) where first.value.range.overlaps(second.value.range) {
            throw invalid("the header lies: tensors '\(first.key)' and '\(second.key)' overlap")
        }
        self.entries = entries
    }

    /// The path of the file.
    var path: String { file.path }

    /// A tensor's floats, checked against the shape the model needs.
    ///
    /// - Parameters:
    ///   - name: The tensor's name in the header.
    ///   - shape: The shape the model's configuration implies.
    /// - Returns: The floats: the mapped bytes for aligned F32, a widened copy for F16.
    /// - Throws: ``ModelLoadingError`` when the tensor is absent or has another dtype or shape.
    func floats(_ name: String, shape: [Int]) throws -> Tensor {
        guard let entry = entries[name] else {
            throw ModelLoadingError.invalid(
                path, "tensor '\(name)' is missing; this file holds \(entries.count) tensors of another model or layout",
                help: "use the model.safetensors that belongs with this config.json; \(ModelLoadingError.reinstall)")
        }
        guard entry.shape == shape else {
            throw ModelLoadingError.invalid(
                path, "tensor '\(name)' has shape \(entry.shape) but config.json implies \(shape)",
                help: "use the config.json that belongs with this model.safetensors; \(ModelLoadingError.reinstall)")
        }
        let bytes = file.bytes(at: dataOffset + entry.range.lowerBound, count: entry.range.count)
        switch entry.dtype {
        case "F32" where Int(bitPattern: bytes.baseAddress) % MemoryLayout<Float>.alignment == 0 || bytes.isEmpty:
            return Tensor(mapped: bytes, owner: file)
        case "F32":
            return Tensor(copying: bytes)
        case "F16":
            return Tensor(widening: bytes)
        default:
            throw ModelLoadingError.invalid(
                path, "tensor '\(name)' is \(entry.dtype); the loader reads F32 or F16 weights",
                help: "convert the weights to float32 (or float16) safetensors")
        }
    }
}
