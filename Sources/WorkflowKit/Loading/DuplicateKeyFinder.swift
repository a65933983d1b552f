import CYaml

/// Finds, in one pass over the YAML events, every mapping key that repeats an earlier key of
/// the same mapping.
///
/// ```swift
/// let repeats = DuplicateKeyFinder.repeatedKeys(in: "name: a\nname: b\n")
/// // [RepeatedKey(name: "name", line: 2, column: 1, firstLine: 1, firstColumn: 1)]
/// ```
///
/// Yams 6.2.2 rejects a whole document as soon as one mapping repeats a key
/// (`Parser.loadMapping` always checks, and its error locates only one repeat), and it
/// exposes neither its event stream nor a way to keep the repeated pairs. Renaming one key
/// per parse made loading quadratic: a 400 KB file with 500 repeated keys took over a minute.
/// So the events are read here, once, from libyaml (the `CYaml` module Yams builds and
/// links), the keys of each open mapping are tracked, and ``YAMLComposer`` renames every
/// repeat before the single parse that builds the node tree.
///
/// Keys are compared by their text, as the converter compares them when it reports the
/// repeats. Keys that are aliases, sequences or mappings are skipped: they cannot be renamed,
/// and Yams reports them as before.
enum DuplicateKeyFinder {
    /// A key that repeats an earlier key of its mapping; lines and columns count from 1.
    struct RepeatedKey: Equatable {
        var name: String
        var line: Int
        var column: Int
        var firstLine: Int
        var firstColumn: Int
    }

    /// The keys that repeat an earlier key of their mapping, in the order written.
    ///
    /// Only the first document is read, as Yams composes only that one. When libyaml fails,
    /// the repeats found before the failure are returned; the parse that follows reports the failure.
    ///
    /// - Parameter text: The YAML text, as it will be handed to Yams.
    /// - Returns: Every repeated key with where it and its first occurrence start.
    static func repeatedKeys(in text: String) -> [RepeatedKey] {
        var text = text
        return text.withUTF8 { bytes in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return [] }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
            var tracker = KeyTracker()
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                let ended = event.type == YAML_DOCUMENT_END_EVENT || event.type == YAML_STREAM_END_EVENT
                tracker.read(event)
                yaml_event_delete(&event)
                if ended { break }
            }
            return tracker.repeats
        }
    }

    /// The open collections, innermost last, and the repeats found so far.
    private struct KeyTracker {
        /// An open sequence or mapping; a mapping remembers where each of its keys first starts.
        private struct Collection {
            let isMapping: Bool
            var expectsKey = true
            var firstPositions: [String: (line: Int, column: Int)] = [:]
        }

        private var open: [Collection] = []
        private(set) var repeats: [RepeatedKey] = []

        mutating func read(_ event: yaml_event_t) {
            let position = (line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
            switch event.type {
            case YAML_SCALAR_EVENT:
                let value = UnsafeBufferPointer(start: event.data.scalar.value, count: event.data.scalar.length)
                readNode(key: String(decoding: value, as: UTF8.self), at: position)
            case YAML_ALIAS_EVENT:
                readNode(key: nil, at: position)
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                readNode(key: nil, at: position)
                open.append(Collection(isMapping: event.type == YAML_MAPPING_START_EVENT))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                _ = open.popLast()
            default:
                break
            }
        }

        /// Notes a node of the innermost collection: in a mapping, keys and values alternate.
        private mutating func readNode(key: String?, at position: (line: Int, column: Int)) {
            guard let innermost = open.indices.last, open[innermost].isMapping else { return }
            defer { open[innermost].expectsKey.toggle() }
            guard open[innermost].expectsKey, let key else { return }
            if let first = open[innermost].firstPositions[key] {
                repeats.append(
                    RepeatedKey(name: key, line: position.line, column: position.column, firstLine: first.line, firstColumn: first.column))
            } else {
                open[innermost].firstPositions[key] = position
            }
        }
    }
}
