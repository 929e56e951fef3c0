import LaunchSupport

/// Why a budget's limit could not be read.
public enum BudgetLimitError: Error, Equatable, CustomStringConvertible {
    /// An absolute limit that is not a quantity.
    case quantity(QuantityError)
    /// A ratio that is not a positive finite number, or has more than a reference and a metric after it.
    case badRatio(String)
    /// A ratio with no reference named and none set.
    case ratioWithoutReference(String)
    /// A ratio's metric that launchprof does not know.
    case unknownMetric(String, String)

    public var description: String {
        switch self {
        case .quantity(let error): error.description
        case .badRatio(let text):
            "'\(text)' is not a ratio like '1.2x hello-c' (a positive factor, a target name, optionally its metric)"
        case let .unknownMetric(text, key): "'\(text)' names unknown metric '\(key)' of its reference"
        case .ratioWithoutReference(let text):
            "'\(text)' is a ratio but names no reference target; write '\(text) NAME' or set 'reference'"
        }
    }
}
