import QuarryCore

extension GeoColumn {
    /// `point.latitude` / `point.longitude` as a double column that shares this column's
    /// arrays (copy-on-write, so making one costs nothing; plans are dropped before the store
    /// changes). A null point reaches nothing at the sub-field, so the typed leaves answer for
    /// it as for a missing one (`KeyAccess.nullIsMissing`); `other` rows go to the reference.
    func component(_ name: String) -> DoubleColumn? {
        let values: [Double]
        switch name {
        case "latitude": values = latitudes
        case "longitude": values = longitudes
        default: return nil
        }
        let view = DoubleColumn(kind: .double)
        view.values = values
        view.slots = slots
        var stats = ColumnStatistics()
        stats.missing = statistics.missing
        stats.nulls = statistics.nulls
        stats.typed = statistics.typed
        stats.others = statistics.others
        stats.distinct = statistics.distinct
        // The degrees' own range, for estimates (exact bounds would cost a pass over the rows).
        let bound: Double = name == "latitude" ? 90 : 180
        stats.min = .double(-bound)
        stats.max = .double(bound)
        // Values of other types might reach anything at the sub-field (an object's field).
        stats.typeBits = statistics.others == 0 ? Value.double(0).typeBit : .max
        stats.multiValued = statistics.others
        view.statistics = stats
        return view
    }
}
