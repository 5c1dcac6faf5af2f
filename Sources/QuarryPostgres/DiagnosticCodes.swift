import Quarry

// The diagnostic codes the PostgreSQL store reports. docs/DIAGNOSTICS.md is generated from the
// catalogues (`make docs`).

extension DiagnosticCode.Store {
    public static let postgres = DiagnosticCode(
        "store.postgres",
        meaning: "PostgreSQL failed while the store read or wrote (the server is unreachable, the role "
            + "lacks a privilege, the disk is full); the message is the server's. Nothing of a failed "
            + "write is kept.",
        example: .situation("`quarry run --store postgresql://nobody@127.0.0.1:1/none` with no server there"))
    public static let postgresCorrupt = DiagnosticCode(
        "store.postgres-corrupt",
        meaning: "A stored object's `raw` column cannot be read back: the table was changed by something "
            + "other than Quarry.",
        example: .situation("a `raw` column edited by hand in psql"))
    public static let unstorable = DiagnosticCode(
        "store.unstorable",
        meaning: "PostgreSQL text cannot hold a NUL character, so a class name, field name or objectId "
            + "holding one cannot be saved in the PostgreSQL store (NULs inside string values are kept).",
        example: .situation("saving an object whose objectId is \"a\\u0000b\""))
}

extension DiagnosticCatalogue {
    public static let postgresStore = DiagnosticCatalogue([.store.postgres, .store.postgresCorrupt, .store.unstorable])
}
