import FuzzSupport

// The json front-end: lexing, parsing, lowering and printing never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard let text = FuzzInput.text(data, size) else { return 0 }
    _ = FuzzInput.compile(text, .json)
    return 0
}

fuzz(fuzzOne)
