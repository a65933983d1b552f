import EmbeddingKernels

/// Read-only floats of one weight tensor: either bytes of a mapped file used in place, or a
/// buffer of its own when the file's bytes had to be converted or realigned.
struct Tensor: @unchecked Sendable {
    /// The first float.
    let pointer: UnsafePointer<Float>
    /// The number of floats.
    let count: Int
    /// What keeps the floats alive: the mapped file, or the tensor's own storage.
    private let owner: AnyObject

    /// Floats used in place in a mapped file.
    init(mapped bytes: UnsafeRawBufferPointer, owner: MappedFile) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            self.init(Storage(count: 0))
            return
        }
        self.init(pointer: base.assumingMemoryBound(to: Float.self), count: bytes.count / MemoryLayout<Float>.stride, owner: owner)
    }

    /// Float32 bytes copied to aligned storage.
    init(copying bytes: UnsafeRawBufferPointer) {
        let storage = Storage(count: bytes.count / MemoryLayout<Float>.stride)
        if let base = bytes.baseAddress { UnsafeMutableRawPointer(storage.pointer).copyMemory(from: base, byteCount: bytes.count) }
        self.init(storage)
    }

    /// Float16 bytes widened to Float32.
    init(widening bytes: UnsafeRawBufferPointer) {
        let storage = Storage(count: bytes.count / 2)
        let halves = UnsafeMutablePointer<UInt16>.allocate(capacity: storage.count)
        defer { halves.deallocate() }
        if let base = bytes.baseAddress { UnsafeMutableRawPointer(halves).copyMemory(from: base, byteCount: bytes.count) }
        ek_half_to_float(halves, storage.pointer, storage.count)
        self.init(storage)
    }

    private init(_ storage: Storage) {
        self.init(pointer: UnsafePointer(storage.pointer), count: storage.count, owner: storage)
    }

    private init(pointer: UnsafePointer<Float>, count: Int, owner: AnyObject) {
        self.pointer = pointer
        self.count = count
        self.owner = owner
    }

    /// Floats owned by a tensor.
    private final class Storage {
        let pointer: UnsafeMutablePointer<Float>
        let count: Int

        init(count: Int) {
            self.count = count
            pointer = .allocate(capacity: max(count, 1))
        }

        deinit { pointer.deallocate() }
    }
}
