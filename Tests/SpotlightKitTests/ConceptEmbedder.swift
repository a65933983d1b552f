import Foundation
import Synchronization
import TextEmbedding

/// A deterministic embedder for tests: each word is mapped to a concept (so `jogging` and
/// `running` land on the same one), then hashed into one of 512 dimensions; character trigrams
/// add a weaker signal, so a misspelt word stays close to the right one.
struct ConceptEmbedder: TextEmbedder {
    var identifier = "concepts@1"
    var dimension: Int { 512 }
    var similarityFloor: Float = 0.2
    /// Documents embedded so far, to check what was (and was not) embedded again.
    let log = Log()
    /// Embedding fails once this many texts have been embedded.
    var failAfter: Int? = nil

    final class Log: Sendable {
        private let texts = Mutex<[String]>([])
        func append(_ new: [String]) { texts.withLock { $0 += new } }
        var all: [String] { texts.withLock { $0 } }
    }

    struct Failure: Error {}

    static let concepts: [String: String] = [
        "jogging": "run", "running": "run", "runs": "run", "run": "run", "jog": "run",
        "sailing": "sea-sport", "surfing": "sea-sport", "windsurfing": "sea-sport",
        "bread": "bake", "sourdough": "bake", "baking": "bake", "loaf": "bake",
        "novel": "book", "book": "book", "reading": "book"
    ]

    func embed(_ texts: [String], role: EmbeddingRole) throws -> [[Float]] {
        if let failAfter, log.all.count + texts.count > failAfter { throw Failure() }
        if role == .document { log.append(texts) }
        return texts.map(vector)
    }

    func vector(_ text: String) -> [Float] {
        var vector = [Float](repeating: 0, count: dimension)
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter })
        for word in words {
            let concept = Self.concepts[String(word)] ?? String(word)
            vector[Self.bucket(concept, dimension)] += 1
            let characters = Array("^" + word + "$")
            if characters.count >= 3 {
                for start in 0...(characters.count - 3) {
                    vector[Self.bucket(String(characters[start..<start + 3]), dimension)] += 0.2
                }
            }
        }
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? vector.map { $0 / norm } : vector
    }

    static func bucket(_ text: String, _ dimension: Int) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash &*= 16_777_619
        }
        return Int(hash % UInt32(dimension))
    }
}
