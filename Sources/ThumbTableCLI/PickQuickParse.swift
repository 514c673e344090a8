import ArgumentParser

extension PickCommand {
    /// `pick`'s arguments (those after `pick`) parsed and validated by ArgumentParser as a command of its own, not
    /// under the root command: the root's parse first reflects over the root's options and then `pick`'s again, which
    /// a one-shot pick in a script pays before anything shows. Nil for anything that does not parse or validate,
    /// help included: the long way (`ThumbTableCommand`) says why, in its words.
    static func parsedAlone(_ arguments: [String]) -> PickCommand? {
        try? parse(arguments)
    }
}
