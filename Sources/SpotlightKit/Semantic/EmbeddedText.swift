import Foundation

/// The text of an item that semantic search embeds, and the hash stored with its vector.
///
/// The text is the title, the display name when it differs from the title, the description,
/// the keywords and the text content, one per line. The embedder truncates it to its token
/// limit, so the beginning of a long text content is what counts.
struct EmbeddedText: Sendable, Hashable {
    var text: String

    init(title: String?, displayName: String?, contentDescription: String?, keywords: String?, textContent: String?) {
        var parts: [String] = []
        func add(_ value: String?) {
            guard let value else { return }
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { parts.append(trimmed) }
        }
        add(title)
        if displayName != title { add(displayName) }
        add(contentDescription)
        add(ItemRecord.split(keywords)?.joined(separator: ", "))
        add(textContent)
        text = parts.joined(separator: "\n")
    }

    /// Whether there is nothing to embed; such items get no vector and are found by words only.
    var isEmpty: Bool { text.isEmpty }

    /// FNV-1a over the UTF-8 bytes, as stored in `spotlightItemEmbedding.textHash`.
    var hash: Int64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: value)
    }
}
