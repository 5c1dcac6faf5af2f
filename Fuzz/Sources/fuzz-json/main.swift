import FuzzSupport

// The json front-end: lexing, parsing, lowering and printing never trap.
fuzz { data, size in
    guard let data else { return 0 }
    guard let text = FuzzInput.text(data, size) else { return 0 }
    _ = FuzzInput.compile(text, .json)
    return 0
}
