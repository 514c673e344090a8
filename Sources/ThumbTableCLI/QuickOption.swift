import ArgumentParser

/// How a quick parser fills one option of a command or option group (`Target`), by the option's long name.
///
/// Through closures that assign the property, not key paths: a key path writes by reading first, and reading an
/// ArgumentParser property that holds no value yet stops the program. Values are converted by the same
/// `ExpressibleByArgument` initialisers ArgumentParser uses.
struct QuickOption<Target> {
    /// A flag takes no value.
    var isFlag = false
    /// Gives the property the value it has when the option is not given: a new command holds none yet.
    var start: (inout Target) -> Void
    /// Reads the option's value into the property; false when the value does not convert.
    var read: (inout Target, String) -> Bool

    /// An option with a default value.
    static func value<Value: ExpressibleByArgument>(default value: Value,
                                                    _ set: @escaping (inout Target, Value) -> Void) -> QuickOption {
        QuickOption(start: { set(&$0, value) }, read: converting(set))
    }

    /// An option that is nil unless given.
    static func optional<Value: ExpressibleByArgument>(_ set: @escaping (inout Target, Value?) -> Void) -> QuickOption {
        QuickOption(start: { set(&$0, nil) }, read: converting { (target, value: Value) in set(&target, value) })
    }

    /// A flag, off unless given.
    static func flag(_ set: @escaping (inout Target, Bool) -> Void) -> QuickOption {
        QuickOption(isFlag: true, start: { set(&$0, false) }, read: { target, _ in
            set(&target, true)
            return true
        })
    }

    /// The same option filling a part of a larger whole: an option group's option in the command that holds the
    /// group. `part` hands the part to its body in place (`{ whole, body in body(&whole.display) }`), a plain stored
    /// property of the whole, never an ArgumentParser property.
    ///
    /// A closure, not a key path: a key path of a generic type (`\WithCommand<PickCommand>.display`) is built anew
    /// each time, about 12,000 instructions, and `pick` took 36 of them (0.42 M).
    func within<Whole>(_ part: @escaping (inout Whole, (inout Target) -> Void) -> Void) -> QuickOption<Whole> {
        let start = start, read = read
        return QuickOption<Whole>(isFlag: isFlag, start: { whole in part(&whole) { start(&$0) } },
                                  read: { whole, text in
                                      var converted = false
                                      part(&whole) { converted = read(&$0, text) }
                                      return converted
                                  })
    }

    /// Reads a value the way ArgumentParser converts it, then stores it with `store`.
    private static func converting<Value: ExpressibleByArgument>(_ store: @escaping (inout Target, Value) -> Void)
        -> (inout Target, String) -> Bool {
        { target, text in
            guard let value = Value(argument: text) else { return false }
            store(&target, value)
            return true
        }
    }
}
