extension Duration {
    /// The duration in seconds, as a Double: for rates and estimates, not for deadlines.
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
