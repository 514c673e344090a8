/// Numbers written with a fixed count of decimals ("1.5 MB", "0.25 s"), as `String(format: "%.1f")` did, without
/// Foundation's formatting machinery.
extension Double {
    /// The number rounded half away from zero to `decimals` places (0...6), written with exactly that many; no
    /// grouping, "-" for negatives, "nan" and "inf" as C writes them.
    public func fixed(_ decimals: Int) -> String {
        guard isFinite else { return isNaN ? "nan" : (self < 0 ? "-inf" : "inf") }
        let places = Swift.min(Swift.max(decimals, 0), 6)
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (Swift.abs(self) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e18 else { return String(self) }
        let units = UInt64(scaled)
        let whole = units / UInt64(scale), fraction = units % UInt64(scale)
        let sign = self < 0 && units != 0 ? "-" : ""
        guard places > 0 else { return "\(sign)\(whole)" }
        let digits = String(fraction)
        return "\(sign)\(whole)." + String(repeating: "0", count: places - digits.count) + digits
    }
}
