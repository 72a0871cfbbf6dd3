extension ErrorAnswer: RenderableAnswer {
    /// `Error: …`'s message, on one line.
    public var text: String { message + "\n" }

    /// `{"error":"…","code":"unknown-currency","exitStatus":64}`
    public var json: JSONText {
        .object([("error", .string(message)), ("code", .string(code)), ("exitStatus", .number(Double(status)))])
    }

    public var csvRows: [[String]] { [["error", "code", "exit_status"], [message, code, "\(status)"]] }
}
