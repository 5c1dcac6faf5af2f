#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small line editor over the terminal's raw mode, for `quarry shell` on a terminal
/// (docs/ARCHITECTURE.md#the-shell): left/right, Home/End, Ctrl-A/E/B/F, Backspace, Delete,
/// Ctrl-K/U/W, history with up/down (Ctrl-P/N), Ctrl-C to drop the line (the terminal stays
/// raw, so Ctrl-C never ends the shell, even during a query), Ctrl-D to end on an empty one.
/// Written here rather than linking libedit or readline, so that the tool needs no C library
/// beyond the ones `make deps` installs.
final class LineEditor: LineSource {
    private let input: Int32
    private let output: FileDescriptorSink
    let history: History

    init(input: Int32, output: FileDescriptorSink, history: History) {
        self.input = input
        self.output = output
        self.history = history
    }

    var isInteractive: Bool { true }

    /// The terminal's settings before the session: raw mode lasts from the first prompt to
    /// `close`, so that keys typed while a query runs are read as typed, not edited by the
    /// terminal's line discipline (output processing stays on: `\n` still starts a line).
    private var saved: termios?
    private var raw = false
    private lazy var plainLines = DescriptorLines(input)

    func close() {
        if let saved { RawMode.leave(input, saved) }
        history.save()
    }

    func next(prompt: String) -> [UInt8]? {
        output.flush()
        if !raw {
            raw = true
            saved = RawMode.enter(input)
        }
        guard saved != nil else {
            // Not a terminal after all: read a plain line.
            output.write(prompt)
            output.flush()
            return plainLines.next(prompt: prompt)
        }
        var edit = LineEdit()
        var recalled = history.entries.count
        var draft: [Unicode.Scalar] = []
        redraw(prompt, edit)
        while let byte = readByte() {
            switch byte {
            case 0x0D, 0x0A:
                output.write("\r\n")
                let line = edit.text
                history.add(line)
                return Array(line.utf8)
            case 0x03:  // Ctrl-C
                output.write("^C\r\n")
                edit = LineEdit()
                recalled = history.entries.count
            case 0x04:  // Ctrl-D
                if edit.scalars.isEmpty {
                    output.write("\r\n")
                    return nil
                }
                edit.deleteForward()
            case 0x01: edit.cursor = 0
            case 0x05: edit.cursor = edit.scalars.count
            case 0x02: edit.moveLeft()
            case 0x06: edit.moveRight()
            case 0x7F, 0x08: edit.deleteBackward()
            case 0x0B: edit.scalars.removeSubrange(edit.cursor...)
            case 0x15:
                edit.scalars.removeSubrange(..<edit.cursor)
                edit.cursor = 0
            case 0x17: edit.deleteWordBackward()
            case 0x10: recall(-1, &edit, &recalled, &draft)
            case 0x0E: recall(1, &edit, &recalled, &draft)
            case 0x1B:
                switch readEscape() {
                case "A": recall(-1, &edit, &recalled, &draft)
                case "B": recall(1, &edit, &recalled, &draft)
                case "C": edit.moveRight()
                case "D": edit.moveLeft()
                case "H", "1~", "7~": edit.cursor = 0
                case "F", "4~", "8~": edit.cursor = edit.scalars.count
                case "3~": edit.deleteForward()
                default: break
                }
            default:
                if byte >= 0x20, let scalar = readScalar(startingWith: byte) { edit.insert(scalar) }
            }
            redraw(prompt, edit)
        }
        output.write("\r\n")
        return edit.scalars.isEmpty ? nil : Array(edit.text.utf8)
    }

    /// Up (-1) or down (+1) through the history; below the newest entry is the line being typed.
    private func recall(_ step: Int, _ edit: inout LineEdit, _ index: inout Int, _ draft: inout [Unicode.Scalar]) {
        let entries = history.entries
        let target = index + step
        guard target >= 0, target <= entries.count else { return }
        if index == entries.count { draft = edit.scalars }
        index = target
        edit.scalars = target == entries.count ? draft : Array(entries[target].unicodeScalars)
        edit.cursor = edit.scalars.count
    }

    /// The prompt and line again, the rest of the screen line cleared, the cursor in place.
    private func redraw(_ prompt: String, _ edit: LineEdit) {
        var text = "\r" + prompt + edit.text + "\u{1B}[K"
        let back = edit.scalars.count - edit.cursor
        if back > 0 { text += "\u{1B}[\(back)D" }
        output.write(text)
        output.flush()
    }

    private func readByte() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let n = systemRead(input, &byte, 1)
            if n == 1 { return byte }
            if n < 0 && errno == EINTR { continue }
            return nil
        }
    }

    /// The rest of an escape sequence after ESC: `A` for ESC [ A, `3~` for ESC [ 3 ~; "" for
    /// one this editor does not know.
    private func readEscape() -> String {
        guard let kind = readByte(), kind == UInt8(ascii: "[") || kind == UInt8(ascii: "O") else { return "" }
        var text = ""
        while let b = readByte() {
            text.unicodeScalars.append(Unicode.Scalar(b))
            if (0x40...0x7E).contains(b) { break }
            if text.count > 8 { return "" }
        }
        return text
    }

    /// A UTF-8 sequence whose first byte is `first`; nil when it is malformed.
    private func readScalar(startingWith first: UInt8) -> Unicode.Scalar? {
        let length = first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 0
        guard length > 0 else { return nil }
        var bytes = [first]
        for _ in 1..<length {
            guard let b = readByte() else { return nil }
            bytes.append(b)
        }
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        if case .scalarValue(let s) = decoder.decode(&iterator) { return s }
        return nil
    }
}

/// The line being edited: its scalars and the cursor (0 is before the first).
struct LineEdit {
    var scalars: [Unicode.Scalar] = []
    var cursor = 0

    var text: String {
        var s = ""
        s.unicodeScalars.append(contentsOf: scalars)
        return s
    }

    mutating func insert(_ s: Unicode.Scalar) {
        scalars.insert(s, at: cursor)
        cursor += 1
    }

    mutating func moveLeft() { cursor = max(0, cursor - 1) }
    mutating func moveRight() { cursor = min(scalars.count, cursor + 1) }

    mutating func deleteBackward() {
        guard cursor > 0 else { return }
        scalars.remove(at: cursor - 1)
        cursor -= 1
    }

    mutating func deleteForward() {
        guard cursor < scalars.count else { return }
        scalars.remove(at: cursor)
    }

    /// Ctrl-W: the blanks before the cursor and the word before them.
    mutating func deleteWordBackward() {
        var start = cursor
        while start > 0, scalars[start - 1] == " " { start -= 1 }
        while start > 0, scalars[start - 1] != " " { start -= 1 }
        scalars.removeSubrange(start..<cursor)
        cursor = start
    }
}

/// The terminal's raw mode: bytes as typed, no echo, no signals from keys.
enum RawMode {
    /// Switches `fd` to raw mode; returns the settings to restore, or nil when it is no terminal.
    static func enter(_ fd: Int32) -> termios? {
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        // TCSADRAIN: keys typed ahead stay in the input queue.
        guard tcsetattr(fd, TCSADRAIN, &raw) == 0 else { return nil }
        return saved
    }

    static func leave(_ fd: Int32, _ saved: termios) {
        var settings = saved
        _ = tcsetattr(fd, TCSADRAIN, &settings)
    }
}
