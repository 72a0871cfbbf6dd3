import ECBRates
import Foundation

/// How a command's output says that it answers as of a moment (`--as-of`).
enum AsOfStamp {
    /// Makes the command's first output say that it answers as of `moment`: a first line in
    /// text, an `"asOf"` first key in a JSON object; CSV, JSON lines and charts stay as they
    /// are, and the note goes to standard error.
    static func stamp(_ console: Console, moment: Date, format: OutputFormat) {
        let when = AsOfMoment.text(moment)
        switch format {
        case .text:
            console.stampFirstOutput { "As of \(when) (the store as it was then):\n" + $0 }
        case .json:
            console.stampFirstOutput { text in
                text.hasPrefix("{") ? "{\"asOf\":\"\(when)\"," + text.dropFirst() : text
            }
        default:
            console.err("answering as of \(when): the store as it was then\n")
        }
    }
}
