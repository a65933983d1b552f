import Foundation
import WorkflowKit

/// Reads the value of `secrets set`: typed on a terminal without being shown, or read from
/// standard input when it is not a terminal.
///
/// On a terminal, echo is switched off (termios) before the prompt, for the one line typed, and
/// switched back on afterwards, also when Ctrl-C or SIGTERM ends the command meanwhile. From a pipe or a file,
/// everything is read, without one final line break (so `echo VALUE |` stores `VALUE`).
///
/// ```swift
/// let value = try SecretValueInput.read(name: "GITHUB_TOKEN")
/// ```
enum SecretValueInput {
    /// The value, as text.
    ///
    /// - Throws: ``CommandLineError`` when the value is empty or not UTF-8 text.
    static func read(name: String) throws -> String {
        let isTerminal = isatty(STDIN_FILENO) == 1
        var bytes = isTerminal ? readHidden(prompt: "Value of secret \(name) (not shown): ") : readAll()
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard let value = String(validating: bytes, as: UTF8.self) else {
            throw CommandLineError("the value of secret '\(name)' is not UTF-8 text", help: ["store text, such as a token in base64"])
        }
        guard !value.isEmpty else {
            let command = Installation.shared.commandName
            throw CommandLineError(
                SecretStoreError.emptyValue(name: name).description,
                help: [
                    isTerminal
                        ? "type the value, then Enter"
                        : "give the value on standard input, such as: printf %s VALUE | \(command) secrets set \(name)"
                ])
        }
        return value
    }

    /// Standard input to its end.
    private static func readAll() -> [UInt8] {
        Array(FileHandle.standardInput.readDataToEndOfFile())
    }

    /// One line typed on the terminal with echo off, with the prompt and the final line break on
    /// standard error.
    private static func readHidden(prompt: String) -> [UInt8] {
        // Echo goes off before the prompt is shown, and without discarding what was typed, so
        // a value typed (or pasted) as soon as the prompt appears is neither shown nor lost.
        var original = termios()
        let hasTerminalSettings = tcgetattr(STDIN_FILENO, &original) == 0
        if hasTerminalSettings {
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        }
        CommandOutput.current.writeError(Data(prompt.utf8))
        let saved = original
        // Ctrl-C or SIGTERM while typing: echo back on, then end by the signal, as without the watch.
        let watch = SignalWatch([SIGINT, SIGTERM]) { number in
            if hasTerminalSettings {
                var restored = saved
                _ = tcsetattr(STDIN_FILENO, TCSANOW, &restored)
            }
            CommandOutput.current.writeError(Data("\n".utf8))
            signal(number, SIG_DFL)
            raise(number)
        }
        defer {
            watch.stop()
            if hasTerminalSettings {
                var restored = saved
                _ = tcsetattr(STDIN_FILENO, TCSANOW, &restored)
            }
            CommandOutput.current.writeError(Data("\n".utf8))
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Foundation.read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR { continue }
            if count <= 0 || byte == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        return line
    }
}
