import Quarry

// The diagnostic codes the SQLite store reports. docs/DIAGNOSTICS.md is generated from the
// catalogues (`make docs`).

extension DiagnosticCode.Store {
    public static let sqlite = DiagnosticCode(
        "store.sqlite",
        meaning: "SQLite failed while the store read or wrote (the file is not a store, the disk is "
            + "full, it is locked by another program); the message is SQLite's. Nothing of a failed "
            + "write is kept.",
        example: .situation("`quarry run --store sqlite:notes.txt` on a file that is not a database"))
    public static let corrupt = DiagnosticCode(
        "store.corrupt",
        meaning: "A stored object's document cannot be read back: the file was changed by something "
            + "other than Quarry.",
        example: .situation("a `doc` column edited by hand"))
    public static let write = DiagnosticCode(
        "store.write",
        meaning: "An object could not be saved during `quarry import`; the import is undone.",
        example: .situation("`quarry import` onto a read-only store file"))
}

extension DiagnosticCatalogue {
    public static let sqliteStore = DiagnosticCatalogue([.store.sqlite, .store.corrupt, .store.write])
}
