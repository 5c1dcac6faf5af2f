/// How a pointer column reaches its target class: objectId → row to resolve a pointer, and
/// row → objectId to give the pointer back. The class may not exist yet (every pointer into
/// it dangles until it does).
struct PointerTargets {
    let row: (String) -> Int?
    let objectId: (Int) -> String
}
