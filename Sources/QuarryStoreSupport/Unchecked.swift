/// A value a store hands from the thread that made it (a Dispatch thread running a blocking
/// read or session) to the one awaiting it, which alone uses it afterwards.
package struct Unchecked<T>: @unchecked Sendable {
    package let value: T
    package init(_ value: T) { self.value = value }
}
